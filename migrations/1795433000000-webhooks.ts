import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound delivery. `webhook_endpoints` belong to an integrator in one environment; their signing secrets are stored
 * encrypted (AES-256-GCM with WEBHOOK_SECRET_KEY), never in clear. `deliveries` is the one record of everything Flusso
 * sends out, whatever the channel (a webhook to an endpoint, an e-mail): its state, its next attempt, and every attempt
 * in `delivery_attempts`. Redis only carries the events to fan out; a delivery lives here until it succeeds or fails.
 *
 * `events.dispatched_at` is set once an event has been fanned out into deliveries: an event relayed to the queue but
 * never dispatched (its job lost with Redis) is found and queued again. Inserting an event or a delivery notifies the
 * worker (LISTEN/NOTIFY, at commit), so it acts at once instead of polling.
 */
export class Webhooks1795433000000 implements MigrationInterface {
  name = 'Webhooks1795433000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE events ADD COLUMN dispatched_at timestamptz(3)`);
    await db.query(`CREATE INDEX events_undispatched ON events (relayed_at, id) WHERE dispatched_at IS NULL AND relayed_at IS NOT NULL`);
    // A document's next event waits for its earlier ones to be fanned out (deliveries go out in the order of changes).
    await db.query(`CREATE INDEX events_undispatched_subject ON events ((payload->>'id'), created_at) WHERE dispatched_at IS NULL`);

    await db.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        integrator_id uuid NOT NULL REFERENCES integrators(id) ON DELETE CASCADE,
        environment text NOT NULL CHECK (environment IN ('development', 'production')),
        url text NOT NULL,
        description text NOT NULL DEFAULT '',
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text CHECK (disabled_reason IN ('requested', 'gone', 'failing')),
        disabled_at timestamptz(3),
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at timestamptz(3),
        failing_since timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CHECK (enabled = (disabled_reason IS NULL))
      )`);
    await db.query(`CREATE INDEX webhook_endpoints_integrator ON webhook_endpoints (integrator_id, environment, created_at, id)`);

    await db.query(`
      CREATE TABLE deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        channel text NOT NULL CHECK (channel IN ('webhook', 'mail')),
        endpoint_id uuid REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        event_id uuid REFERENCES events(id) ON DELETE CASCADE,
        message jsonb,
        ordering_key text,
        ordering_at timestamptz(3),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz(3) NOT NULL DEFAULT now(),
        last_attempt_at timestamptz(3),
        completed_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CHECK ((channel = 'webhook') = (endpoint_id IS NOT NULL AND event_id IS NOT NULL)),
        CHECK ((channel = 'mail') = (message IS NOT NULL)),
        UNIQUE (endpoint_id, event_id)
      )`);
    await db.query(`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'`);
    await db.query(`CREATE INDEX deliveries_unattempted ON deliveries (endpoint_id, ordering_key, ordering_at) WHERE status = 'pending' AND attempts = 0`);
    await db.query(`CREATE INDEX deliveries_endpoint_created ON deliveries (endpoint_id, created_at, id)`);
    await db.query(`CREATE INDEX deliveries_event ON deliveries (event_id)`);

    await db.query(`
      CREATE TABLE delivery_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        delivery_id uuid NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
        attempted_at timestamptz(3) NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('succeeded', 'failed')),
        duration_ms integer NOT NULL,
        response_status integer,
        response_body text,
        error text
      )`);
    await db.query(`CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, attempted_at)`);

    // One notification per statement, sent at commit: the worker's relay and delivery loops wake on it.
    await db.query(`
      CREATE FUNCTION notify_flusso_work() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify(TG_ARGV[0], '');
        RETURN NULL;
      END $$`);
    await db.query(`CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION notify_flusso_work('flusso_events')`);
    await db.query(`CREATE TRIGGER deliveries_notify AFTER INSERT ON deliveries FOR EACH STATEMENT EXECUTE FUNCTION notify_flusso_work('flusso_deliveries')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE IF EXISTS delivery_attempts`);
    await db.query(`DROP TABLE IF EXISTS deliveries`);
    await db.query(`DROP TABLE IF EXISTS webhook_endpoints`);
    await db.query(`DROP TRIGGER IF EXISTS events_notify ON events`);
    await db.query(`DROP FUNCTION IF EXISTS notify_flusso_work`);
    await db.query(`ALTER TABLE events DROP COLUMN dispatched_at`);
  }
}
