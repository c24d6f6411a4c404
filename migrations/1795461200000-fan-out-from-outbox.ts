import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The worker fans events out straight from the outbox (webhooks/event-fan-out.ts: undispatched events claimed in the
 * order they were recorded) instead of relaying them through BullMQ's `events` queue, so `events.relayed_at` has no
 * reader left in this release.
 *
 * Rolling deploys: for a while workers and APIs of the previous release run beside these ones, so nothing they use
 * goes yet. `relayed_at` defaults to now(): an event recorded by a new API looks relayed to an old worker, whose relay
 * leaves it to the fan-out of whichever worker claims it first; an old API still writes NULL, and an old worker relays
 * such an event into its queue and fans it out itself. Either way the fan-out is idempotent (one delivery per event and
 * endpoint) and an old worker's relay sweeper only re-queues events that nobody fanned out for 5 s. The relay
 * sweeper's index goes (its scan is served by the new one, whose condition it shares). The next release drops
 * `relayed_at` and `events_unrelayed` once no worker of the previous one runs; the `events` queue's keys left in Redis
 * (`{REDIS_PREFIX}:events:*`) can be deleted then.
 */
export class FanOutFromOutbox1795461200000 implements MigrationInterface {
  name = 'FanOutFromOutbox1795461200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX events_to_fan_out ON events (created_at, id) WHERE dispatched_at IS NULL`);
    await db.query(`DROP INDEX events_undispatched`);
    await db.query(`ALTER TABLE events ALTER COLUMN relayed_at SET DEFAULT now()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE events ALTER COLUMN relayed_at DROP DEFAULT`);
    // Events fanned out by this release were never relayed: they stay out of the relay's and its sweeper's way.
    await db.query(`UPDATE events SET relayed_at = coalesce(relayed_at, dispatched_at, created_at) WHERE relayed_at IS NULL AND dispatched_at IS NOT NULL`);
    await db.query(`CREATE INDEX events_undispatched ON events (relayed_at, id) WHERE dispatched_at IS NULL AND relayed_at IS NOT NULL`);
    await db.query(`DROP INDEX events_to_fan_out`);
  }
}
