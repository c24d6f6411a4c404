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
}
