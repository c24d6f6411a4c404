import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint chooses the event types it receives (`enabled_events`): `{*}`, every type (also the ones added later),
 * is what every existing endpoint received and stays the default.
 *
 * A webhook delivery carries either an event of the outbox (`event_id`) or, for an endpoint's test event, a message
 * composed up front (`message`, as an e-mail's is): a test event belongs to no company, so it is no event of the outbox
 * and never fanned out. The two checks that tied a webhook to `event_id` and `message` to e-mails become one; it is
 * added NOT VALID and validated apart, so that validating it does not block the deliveries being written meanwhile.
 */
export class WebhookEnabledEvents1795462700000 implements MigrationInterface {
  name = 'WebhookEnabledEvents1795462700000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_endpoints ADD COLUMN enabled_events text[] NOT NULL DEFAULT '{*}' CHECK (cardinality(enabled_events) > 0)`);
    await db.query(`
      ALTER TABLE deliveries
        ADD CONSTRAINT deliveries_what CHECK (CASE channel
          WHEN 'webhook' THEN endpoint_id IS NOT NULL AND num_nonnulls(event_id, message) = 1
          WHEN 'mail' THEN message IS NOT NULL AND endpoint_id IS NULL AND event_id IS NULL END) NOT VALID`);
    await db.query(`ALTER TABLE deliveries VALIDATE CONSTRAINT deliveries_what`);
    await db.query(`ALTER TABLE deliveries DROP CONSTRAINT deliveries_check, DROP CONSTRAINT deliveries_check1`);
    // The test events an endpoint was sent lately, counted by its rate limit (few rows: only composed webhooks).
    await db.query(`CREATE INDEX deliveries_composed ON deliveries (endpoint_id, created_at) WHERE channel = 'webhook' AND event_id IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX deliveries_composed`);
    // Test events cannot be kept by the previous schema.
    await db.query(`DELETE FROM deliveries WHERE channel = 'webhook' AND event_id IS NULL`);
    await db.query(`ALTER TABLE deliveries ADD CONSTRAINT deliveries_check CHECK ((channel = 'webhook') = (endpoint_id IS NOT NULL AND event_id IS NOT NULL))`);
    await db.query(`ALTER TABLE deliveries ADD CONSTRAINT deliveries_check1 CHECK ((channel = 'mail') = (message IS NOT NULL))`);
    await db.query(`ALTER TABLE deliveries DROP CONSTRAINT deliveries_what`);
    await db.query(`ALTER TABLE webhook_endpoints DROP COLUMN enabled_events`);
  }
}
