import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A claimed delivery says whose it is: `claim_id` (one per claim of a worker) and `claimed_at`, set by the claim and
 * cleared when the attempt is recorded. A worker records its attempt only on deliveries it still holds, and a claim
 * that finds a claim never recorded (its worker died in the middle of the attempt) records that attempt as `unknown`:
 * the receiver may have it, and may get it again. Due deliveries are indexed per channel, as each channel is claimed
 * up to its own room. Completed deliveries and events are indexed by age for the retention sweep.
 */
export class DeliveryClaims1795456000000 implements MigrationInterface {
  name = 'DeliveryClaims1795456000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE deliveries ADD COLUMN claim_id uuid, ADD COLUMN claimed_at timestamptz(3)`);
    await db.query(`ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_outcome_check`);
    // Wider than the constraint it replaces, so every row already satisfies it: not checked again over the whole table
    // (which would lock it for the scan).
    await db.query(
      `ALTER TABLE delivery_attempts ADD CONSTRAINT delivery_attempts_outcome_check CHECK (outcome IN ('succeeded', 'failed', 'unknown')) NOT VALID`,
    );
    await db.query(`DROP INDEX deliveries_due`);
    await db.query(`CREATE INDEX deliveries_due ON deliveries (channel, next_attempt_at) WHERE status = 'pending' AND NOT waiting`);
    await db.query(`CREATE INDEX deliveries_completed ON deliveries (completed_at) WHERE status <> 'pending'`);
    await db.query(`CREATE INDEX events_created ON events (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX events_created`);
    await db.query(`DROP INDEX deliveries_completed`);
    await db.query(`DROP INDEX deliveries_due`);
    await db.query(`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending' AND NOT waiting`);
    await db.query(`DELETE FROM delivery_attempts WHERE outcome = 'unknown'`);
    await db.query(`ALTER TABLE delivery_attempts DROP CONSTRAINT delivery_attempts_outcome_check`);
    await db.query(`ALTER TABLE delivery_attempts ADD CONSTRAINT delivery_attempts_outcome_check CHECK (outcome IN ('succeeded', 'failed'))`);
    await db.query(`ALTER TABLE deliveries DROP COLUMN claimed_at, DROP COLUMN claim_id`);
  }
}
