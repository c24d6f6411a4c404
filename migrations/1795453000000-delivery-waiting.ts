import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A webhook delivery that must wait for an earlier one of its document to the same endpoint says so in a column of
 * its own, set when it is fanned out and cleared when the earlier one's first attempt is recorded. The engine then
 * claims due deliveries with one ordered index scan, however long the queue behind each document is: before, every
 * claim checked each due delivery's predecessors, and a backlog of 60,000 made each claim take half a second.
 * The queue table is analysed more often than the default, so the planner knows how many deliveries are due.
 */
export class DeliveryWaiting1795453000000 implements MigrationInterface {
  name = 'DeliveryWaiting1795453000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE deliveries ADD COLUMN waiting boolean NOT NULL DEFAULT false`);
    await db.query(`
      UPDATE deliveries d SET waiting = true
       WHERE d.status = 'pending' AND d.attempts = 0 AND d.ordering_key IS NOT NULL
         AND EXISTS (SELECT 1 FROM deliveries p
                      WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key
                        AND p.status = 'pending' AND p.attempts = 0 AND p.ordering_at < d.ordering_at)`);
    await db.query(`ALTER TABLE deliveries ADD CONSTRAINT deliveries_waiting_unattempted CHECK (NOT waiting OR (status = 'pending' AND attempts = 0))`);
    await db.query(`DROP INDEX deliveries_due`);
    await db.query(`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending' AND NOT waiting`);
    await db.query(`CREATE INDEX deliveries_waiting ON deliveries (endpoint_id, ordering_key, ordering_at) WHERE waiting`);
    await db.query(`ALTER TABLE deliveries SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_analyze_scale_factor = 0.02)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE deliveries RESET (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor)`);
    await db.query(`DROP INDEX deliveries_waiting`);
    await db.query(`DROP INDEX deliveries_due`);
    await db.query(`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'`);
    await db.query(`ALTER TABLE deliveries DROP CONSTRAINT deliveries_waiting_unattempted`);
    await db.query(`ALTER TABLE deliveries DROP COLUMN waiting`);
  }
}
