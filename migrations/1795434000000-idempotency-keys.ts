import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `Idempotency-Key` on POST: one row per key, scoped to the integrator, its environment and the company in the path
 * (`company_id` is null for routes outside a company, such as webhook endpoints). A row is `in_progress` while the
 * first request runs (held until `locked_until`), then `completed` with the answer to replay: status, the headers
 * that describe the body, and the body sealed with AES-256-GCM (it may carry a webhook signing secret). Rows live 24
 * hours (`expires_at`); an expired row is replaced by the next request with its key and deleted by the worker.
 */
export class IdempotencyKeys1795434000000 implements MigrationInterface {
  name = 'IdempotencyKeys1795434000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE idempotency_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        integrator_id uuid NOT NULL REFERENCES integrators(id) ON DELETE CASCADE,
        environment text NOT NULL CHECK (environment IN ('development', 'production')),
        company_id uuid REFERENCES companies(id) ON DELETE CASCADE,
        key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
        fingerprint text NOT NULL,
        status text NOT NULL CHECK (status IN ('in_progress', 'completed')),
        locked_until timestamptz(3),
        response_status integer,
        response_headers jsonb,
        response_body text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        expires_at timestamptz(3) NOT NULL,
        CHECK ((status = 'completed') = (response_status IS NOT NULL))
      )`);
    // A key outside any company is one scope of its own: NULLS NOT DISTINCT keeps it unique too.
    await db.query(`CREATE UNIQUE INDEX idempotency_keys_scope ON idempotency_keys (integrator_id, environment, company_id, key) NULLS NOT DISTINCT`);
    await db.query(`CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE IF EXISTS idempotency_keys`);
  }
}
