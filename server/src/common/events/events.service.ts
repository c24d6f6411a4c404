import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventsRepository } from './events.repository.js';

export const EVENT_TYPES = [
  'document.created',
  'document.updated',
  'document.deleted',
  'transaction.created',
  'reconciliation.created',
  'reconciliation.deleted',
  'f24.processed',
  'f24.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Records events in the outbox, always inside the caller's database transaction. */
@Injectable()
export class EventsService {
  private readonly events = new EventsRepository();

  /**
   * `occurredAt` is when the change took effect, taken after the locks that order it (for a document, its new
   * `updated_at`), never the transaction's start: the fan-out takes events in that order.
   */
  async record(manager: EntityManager, companyId: string, type: EventType, payload: object, occurredAt: Date): Promise<void> {
    return this.events.record(manager, companyId, type, payload as Record<string, unknown>, occurredAt);
  }
}
