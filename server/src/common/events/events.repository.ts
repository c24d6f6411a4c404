import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DummyValue, GenerateSql } from '../database/generate-sql.js';
import { DomainEvent } from './event.entity.js';

/** The outbox's one write: an event, in the caller's transaction (its reads are the fan-out's, in DeliveriesRepository). */
@Injectable()
export class EventsRepository {
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, 'document.updated', { id: DummyValue.UUID, version: 2 }, DummyValue.TIMESTAMP] })
  record(manager: EntityManager, companyId: string, type: string, payload: Record<string, unknown>, createdAt: Date): Promise<DomainEvent> {
    return manager.getRepository(DomainEvent).save({ companyId, type, payload, createdAt });
  }
}
