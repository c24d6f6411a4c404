import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainEvent } from './event.entity.js';

export type EventType = 'document.updated';

/** Records events in the outbox, always inside the caller's database transaction. */
@Injectable()
export class EventsService {
  async record(manager: EntityManager, companyId: string, type: EventType, payload: Record<string, unknown>): Promise<DomainEvent> {
    return manager.getRepository(DomainEvent).save({ companyId, type, payload, relayedAt: null });
  }
}
