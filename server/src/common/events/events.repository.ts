import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { API_VERSION } from '../../config/api-version.js';
import { DummyValue, GenerateSql } from '../database/generate-sql.js';
import { DomainEvent } from './event.entity.js';

/**
 * The outbox's writes: events, in the caller's transaction (the fan-out's reads are in DeliveriesRepository, the events
 * API's in events/events.repository.ts).
 */
@Injectable()
export class EventsRepository {
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, 'document.updated', { id: DummyValue.UUID, version: 2 }, DummyValue.TIMESTAMP] })
  record(manager: EntityManager, companyId: string, type: string, payload: Record<string, unknown>, createdAt: Date): Promise<DomainEvent> {
    return manager.getRepository(DomainEvent).save({ companyId, type, payload, createdAt, apiVersion: API_VERSION });
  }

  /** One statement for any number of events: the payloads travel as one JSON array, unnested by PostgreSQL. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, 'transaction.created', [{ id: DummyValue.UUID }], DummyValue.TIMESTAMP] })
  async recordMany(manager: EntityManager, companyId: string, type: string, payloads: readonly object[], createdAt: Date): Promise<void> {
    await manager.query(
      `INSERT INTO events (company_id, type, payload, created_at, api_version)
       SELECT $1, $2, p.payload, $4, $5 FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS p(payload, n) ORDER BY p.n`,
      [companyId, type, JSON.stringify(payloads), createdAt, API_VERSION],
    );
  }
}
