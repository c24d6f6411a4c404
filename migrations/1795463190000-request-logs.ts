import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The integrators' request log (request-logs/): their failed requests of the last 7 days, written by the API in
 * batches. Its list reads one integrator's environment newest first (`request_logs_list`, which a 7-day range keeps
 * small); the worker's retention deletes by time alone, served by a BRIN index, which costs the batched inserts
 * almost nothing (rows arrive in time order). No foreign keys: a batch holds many integrators' rows, and one that a
 * reference failed would be dropped whole.
 */
export class RequestLogs1795463190000 implements MigrationInterface {
  name = 'RequestLogs1795463190000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE request_logs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        integrator_id uuid NOT NULL,
        environment text NOT NULL,
        api_key_id uuid NOT NULL,
        key_prefix text NOT NULL,
        company_id uuid,
        method text NOT NULL,
        route text,
        path text NOT NULL,
        status smallint NOT NULL,
        status_class text NOT NULL,
        error_codes text[] NOT NULL,
        request_id text NOT NULL,
        duration_ms real NOT NULL,
        created_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE INDEX request_logs_list ON request_logs (integrator_id, environment, created_at, id)`);
    await db.query(`CREATE INDEX request_logs_request_id ON request_logs (integrator_id, environment, request_id)`);
    await db.query(`CREATE INDEX request_logs_created_at ON request_logs USING brin (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE request_logs`);
  }
}
