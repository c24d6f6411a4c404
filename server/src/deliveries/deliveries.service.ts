import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { webhookDeliveryList } from './delivery-list.js';
import { presentMailState, presentWebhookDelivery, type MailState, type WebhookDeliveryState } from './delivery.presenter.js';
import type { MailMessage, WebhookMessage } from './delivery.entity.js';

/**
 * The one way into the outbound pipeline and the one report of its state: webhooks and e-mails are enqueued here (in
 * the caller's transaction where they belong to a change), and their state is read here. The worker's fan-out and
 * engine send them; `deliveries/` knows no channel's sender (they register in the worker's composition).
 */
@Injectable()
export class DeliveriesService {
  private readonly repository: DeliveriesRepository;

  constructor(@InjectDataSource() db: DataSource) {
    this.repository = new DeliveriesRepository(db);
  }

  /** Queues an e-mail in the caller's transaction, so it is sent only if the change that made it commits; returns its id. */
  enqueueMail(manager: EntityManager, message: MailMessage): Promise<string> {
    return this.repository.enqueueMail(manager, message);
  }

  /** Makes an endpoint's pending deliveries due at once (it was enabled again), in the caller's transaction. */
  resumeEndpoint(manager: EntityManager, endpointId: string): Promise<void> {
    return this.repository.resumeEndpoint(manager, endpointId);
  }

  /** The type of an event of a company the integrator is granted; null when there is none. */
  grantedEventType(integratorId: string, eventId: string): Promise<string | null> {
    return this.repository.grantedEventType(integratorId, eventId);
  }

  /** Sends an event to an endpoint again; the delivery as it now is, or null when the integrator has no such event. */
  async replayWebhook(endpointId: string, integratorId: string, eventId: string): Promise<WebhookDeliveryState | null> {
    const id = await this.repository.replayWebhook(endpointId, integratorId, eventId);
    if (!id) return null;
    return presentWebhookDelivery((await this.repository.load([id])).get(id)!);
  }

  /**
   * Queues a webhook composed up front (a test event) to one endpoint, unless `limit` of them were queued to it since
   * `since`: the delivery as it now is, or when the oldest of those was queued.
   */
  async enqueueWebhookMessage(endpointId: string, message: WebhookMessage, limit: number, since: Date): Promise<WebhookDeliveryState | { oldest: Date }> {
    const queued = await this.repository.enqueueWebhookMessage(endpointId, message, limit, since);
    if (!('id' in queued)) return queued;
    return presentWebhookDelivery((await this.repository.load([queued.id])).get(queued.id)!);
  }

  /** A page of an endpoint's deliveries, each with every attempt. */
  async webhookDeliveries(endpointId: string, params: QueryParams): Promise<Page<WebhookDeliveryState>> {
    const query = parseListQuery(params, webhookDeliveryList);
    const { rows, cursor } = await this.repository.pageOfEndpoint(endpointId, query);
    const loaded = await this.repository.withEventsAndAttempts(rows);
    return page(
      rows.map((d) => presentWebhookDelivery(loaded.get(d.id)!)),
      cursor,
      query.pageSize,
    );
  }

  /** The state of e-mails by delivery id. */
  async mailStates(ids: string[]): Promise<Map<string, MailState>> {
    const loaded = await this.repository.load(ids);
    return new Map([...loaded].map(([id, delivery]) => [id, presentMailState(delivery)]));
  }
}
