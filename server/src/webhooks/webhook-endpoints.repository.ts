import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type DeepPartial, type EntityManager } from 'typeorm';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import type { Environment } from '../config/config.js';
import { Integrator } from '../integrators/integrator.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

export const webhookEndpointList = defineList({
  alias: 'e',
  sorts: { created_at: { column: 'e.createdAt', type: 'datetime' } },
  defaultSort: 'created_at',
});

/** What a batch of attempts says about one endpoint's health. */
export interface EndpointHealth {
  id: string;
  succeeded: boolean;
  firstFailure: Date | null;
  gone: boolean;
}

/** An endpoint the batch just disabled, with whom to tell. */
export interface DisabledEndpoint {
  id: string;
  url: string;
  failing_since: Date | null;
  disabled_reason: string;
  contact_email: string | null;
  name: string;
}

/** The SQL of webhook endpoints: pages, reads (locked for a change), writes, and the health the worker records. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @GenerateSql({ params: [DummyValue.INTEGRATOR_ID, 'production', parseListQuery({}, webhookEndpointList)] })
  page(integratorId: string, environment: Environment, query: ListQuery): Promise<{ rows: WebhookEndpoint[]; cursor: string | null }> {
    const base = this.db
      .getRepository(WebhookEndpoint)
      .createQueryBuilder('e')
      .where('e.integratorId = :integratorId AND e.environment = :environment', { integratorId, environment });
    return fetchPage(base, webhookEndpointList, query);
  }

  /** How many endpoints are disabled, by why: `requested` (by their integrator or an operator), `gone` (a 410), `failing`. */
  @GenerateSql({ params: [] })
  disabledByReason(): Promise<Array<{ reason: string; endpoints: number }>> {
    return this.db.query(
      'SELECT disabled_reason AS reason, count(*)::int AS endpoints FROM webhook_endpoints WHERE NOT enabled GROUP BY disabled_reason ORDER BY disabled_reason',
    );
  }

  /** Every endpoint of an integrator (or of all), oldest first. */
  @GenerateSql({ params: [DummyValue.INTEGRATOR_ID] })
  all(integratorId?: string): Promise<WebhookEndpoint[]> {
    return this.db.getRepository(WebhookEndpoint).find({ where: integratorId ? { integratorId } : {}, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  @GenerateSql({ params: [DummyValue.INTEGRATOR_ID] })
  integratorExists(id: string): Promise<boolean> {
    return this.db.getRepository(Integrator).existsBy({ id });
  }

  /** One endpoint by id, locked for the caller's transaction when `lock`. */
  // The locked read (FOR UPDATE) needs the caller's transaction, which the snapshot's example has not.
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.UUID, false] })
  byId(manager: EntityManager, id: string, lock: boolean): Promise<WebhookEndpoint | null> {
    return manager.getRepository(WebhookEndpoint).findOne({ where: { id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  @GenerateSql({ params: [DummyValue.MANAGER, { id: DummyValue.UUID, description: 'ERP' }] })
  save(manager: EntityManager, endpoint: DeepPartial<WebhookEndpoint>): Promise<WebhookEndpoint> {
    return manager.getRepository(WebhookEndpoint).save(endpoint);
  }

  /** Deletes an endpoint with its deliveries and their attempts (ON DELETE CASCADE); returns whether it was there. */
  @GenerateSql({ params: [DummyValue.UUID] })
  async delete(id: string): Promise<boolean> {
    return Boolean((await this.db.getRepository(WebhookEndpoint).delete({ id })).affected);
  }

  /**
   * Records what a batch of attempts says about endpoints, in the caller's transaction: a success clears the failure
   * record, a failure starts one, a 410 or failures since before `disableBefore` disable the endpoint. Returns the
   * endpoints this disabled, with their integrator's contact.
   */
  @GenerateSql({
    params: [DummyValue.MANAGER, [{ id: DummyValue.UUID, succeeded: false, firstFailure: DummyValue.TIMESTAMP, gone: false }], DummyValue.TIMESTAMP],
  })
  recordHealth(manager: EntityManager, changes: EndpointHealth[], disableBefore: Date): Promise<DisabledEndpoint[]> {
    return manager.query(
      `WITH o AS (
           SELECT * FROM unnest($1::uuid[], $2::bool[], $3::timestamptz[], $4::bool[]) AS o(id, succeeded, failed_at, gone)
         ), before AS (
           SELECT id, enabled FROM webhook_endpoints WHERE id IN (SELECT id FROM o) FOR UPDATE
         ), changed AS (
           UPDATE webhook_endpoints e
              SET failing_since = CASE WHEN o.succeeded THEN NULL ELSE coalesce(e.failing_since, o.failed_at) END,
                  enabled = e.enabled AND NOT (o.gone OR (NOT o.succeeded AND coalesce(e.failing_since, o.failed_at) < $5)),
                  disabled_reason = CASE WHEN NOT e.enabled THEN e.disabled_reason WHEN o.gone THEN 'gone'
                                         WHEN NOT o.succeeded AND coalesce(e.failing_since, o.failed_at) < $5 THEN 'failing' END,
                  disabled_at = CASE WHEN NOT e.enabled THEN e.disabled_at
                                     WHEN o.gone OR (NOT o.succeeded AND coalesce(e.failing_since, o.failed_at) < $5) THEN now() END
             FROM o JOIN before b ON b.id = o.id WHERE e.id = o.id
           RETURNING e.id, e.url, e.failing_since, e.disabled_reason, e.enabled, e.integrator_id, b.enabled AS was_enabled
         )
         SELECT c.id, c.url, c.failing_since, c.disabled_reason, i.contact_email, i.name
           FROM changed c JOIN integrators i ON i.id = c.integrator_id
          WHERE c.was_enabled AND NOT c.enabled`,
      [changes.map((e) => e.id), changes.map((e) => e.succeeded), changes.map((e) => e.firstFailure), changes.map((e) => e.gone), disableBefore],
    );
  }
}
