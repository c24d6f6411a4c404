import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events API (GET /companies/{id}/events) reads the outbox in commit order:
 * - `transaction_id`: the top-level transaction that recorded the event (`pg_current_xact_id()`, as bigint: an xid8
 *   never reaches 2^63). The list serves only events whose transaction is older than its snapshot's xmin, so an event
 *   still uncommitted when a page is read can never appear later before that page's cursor (events/events.repository.ts).
 *   Existing rows all get the migration's own transaction id: they committed long ago, in no order a cursor knows.
 * - `position`: the order in which events were recorded, which orders the events of one transaction (a reconciliation
 *   and the document change it makes share an instant).
 * - `document_id`: the document a `document.*` event is about (its payload's id), for the `document_id` filter.
 * - `api_version`: the version of the API whose presenter wrote the payload.
 */
export class EventsApi1795462500000 implements MigrationInterface {
  name = 'EventsApi1795462500000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE events ADD COLUMN transaction_id bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint)`);
    await db.query(`ALTER TABLE events ADD COLUMN position bigint GENERATED ALWAYS AS IDENTITY`);
    await db.query(
      // Only an id written as a uuid is taken: a payload of another shape must neither fail this migration nor a later insert.
      `ALTER TABLE events ADD COLUMN document_id uuid GENERATED ALWAYS AS (
         CASE WHEN type LIKE 'document.%' AND payload->>'id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              THEN (payload->>'id')::uuid END) STORED`,
    );
    await db.query(`ALTER TABLE events ADD COLUMN api_version text NOT NULL DEFAULT '1.2.0'`);
    await db.query(`CREATE INDEX events_in_commit_order ON events (company_id, transaction_id, position)`);
    await db.query(`CREATE INDEX events_of_document ON events (company_id, document_id, transaction_id, position) WHERE document_id IS NOT NULL`);
    // The company's events by time: the commit-order index serves it now.
    await db.query(`DROP INDEX events_company_created`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX events_company_created ON events (company_id, created_at, id)`);
    await db.query(`DROP INDEX events_of_document`);
    await db.query(`DROP INDEX events_in_commit_order`);
    await db.query(`ALTER TABLE events DROP COLUMN api_version`);
    await db.query(`ALTER TABLE events DROP COLUMN document_id`);
    await db.query(`ALTER TABLE events DROP COLUMN position`);
    await db.query(`ALTER TABLE events DROP COLUMN transaction_id`);
  }
}
