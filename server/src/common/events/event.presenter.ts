import { instant } from '../time/instant.js';

/** An event as the events API answers it and as a webhook's body carries it: one shape, from this one presenter. */
export interface EventBody {
  id: string;
  type: string;
  /** The same as `type`: the member the first webhook bodies named it by, kept for receivers written against them. */
  event: string;
  /** The version of the API whose presenter wrote `data`. */
  api_version: string;
  /** The company the event is about; null for a test event (`webhook.test`), which is about none. */
  company_id: string | null;
  created_at: string;
  /** The object as the API answered it when the event was recorded (`document.deleted`: as it was when deleted). */
  data: Record<string, unknown>;
}

/** What presenting an event reads: a stored event (events/event-reads.repository.ts), a claimed delivery's, or a test event. */
export interface RecordedEvent {
  id: string;
  companyId: string | null;
  type: string;
  apiVersion: string;
  createdAt: Date;
  payload: Record<string, unknown>;
}

export function presentEvent(event: RecordedEvent): EventBody {
  return {
    id: event.id,
    type: event.type,
    event: event.type,
    api_version: event.apiVersion,
    company_id: event.companyId,
    created_at: instant(event.createdAt),
    data: event.payload,
  };
}
