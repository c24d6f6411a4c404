import type { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { apiEnum } from '../common/listing/api-enum.js';
import { isUuid } from '../common/validation/uuid.js';
import type { AppConfig, Environment } from '../config/config.js';
import { DeliveriesService } from '../deliveries/deliveries.service.js';
import type {
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
  WebhookDeliveryDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from './webhook-endpoint.dto.js';
import type { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { webhookEndpointList, WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { encryptSecret, generateSecret } from './webhook-secrets.js';
import { checkUrl, UrlNotAllowedError } from './url-guard.js';
import { ALL_PERMISSIONS } from '../common/auth/permissions.js';
import { EVENT_PERMISSIONS, missingPermission, permissionsOfEventsReceived, receives } from './event-permissions.js';
import { ALL_EVENTS, parseEnabledEvents, registeredTypes, TEST_EVENT_TYPE } from './enabled-events.js';
import { randomUUID } from 'node:crypto';

export { webhookEndpointList } from './webhook-endpoints.repository.js';

export { webhookDeliveryList } from '../deliveries/delivery-list.js';

/** During a rotation the previous secret keeps signing for this long, so receivers can switch without losing events. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

/**
 * Whose endpoints a caller may act on: an API key's integrator in the API's environment, or (an operator at the CLI)
 * any endpoint. An endpoint outside the scope is not found, so nothing is learnt about other integrators' endpoints.
 * `permissions` are the API key's (event-permissions.ts); an operator's scope has none and may do anything.
 */
export interface EndpointScope {
  integratorId?: string;
  environment?: Environment;
  keyId?: string;
  permissions?: ReadonlySet<string>;
}

/**
 * Test events one endpoint may be sent per TEST_WINDOW_MS: enough to try a receiver again and again while fixing it,
 * not a way to make Flusso flood a URL (each is a delivery with its retries).
 */
export const TEST_EVENTS_PER_WINDOW = 10;
export const TEST_WINDOW_MS = 60_000;

export function presentEndpoint(endpoint: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    enabled: endpoint.enabled,
    permissions: ALL_PERMISSIONS.filter((p) => endpoint.permissions.includes(p)),
    enabled_events: endpoint.enabledEvents,
    disabled_reason: endpoint.disabledReason && apiEnum(endpoint.disabledReason),
    disabled_at: endpoint.disabledAt?.toISOString() ?? null,
    failing_since: endpoint.failingSince?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

/**
 * Webhook endpoints and their deliveries, as integrators (through the API) and operators (through the CLI) manage
 * them; the deliveries themselves are enqueued, replayed and reported by the deliveries service. Plain TypeORM, so
 * the CLI uses it without booting Nest.
 */
export class WebhookEndpointsService {
  private readonly deliveries: DeliveriesService;
  private readonly endpoints: WebhookEndpointsRepository;

  constructor(
    private readonly db: DataSource,
    private readonly settings: Pick<AppConfig, 'environment' | 'webhooks'>,
  ) {
    this.deliveries = new DeliveriesService(db);
    this.endpoints = new WebhookEndpointsRepository(db);
  }

  async list(scope: Required<EndpointScope>, params: QueryParams): Promise<Page<WebhookEndpointDto>> {
    const query = parseListQuery(params, webhookEndpointList);
    const { rows, cursor } = await this.endpoints.page(scope.integratorId, scope.environment, query);
    return page(rows.map(presentEndpoint), cursor, query.pageSize);
  }

  /** Every endpoint of an integrator (or of all), oldest first: the operator's list. */
  async listAll(integratorId?: string): Promise<Array<WebhookEndpointDto & { integrator_id: string; environment: Environment; api_key_id: string | null }>> {
    if (integratorId !== undefined && !isUuid(integratorId)) throw ApiError.of('bad_request', `Integrator id "${integratorId}" is not a uuid.`);
    const endpoints = await this.endpoints.all(integratorId?.toLowerCase());
    return endpoints.map((e) => ({ ...presentEndpoint(e), integrator_id: e.integratorId, environment: e.environment, api_key_id: e.apiKeyId }));
  }

  /** Registers an endpoint for the key's integrator; the key must be able to read what the endpoint will receive. */
  async create(
    owner: Required<Pick<EndpointScope, 'integratorId' | 'environment'>> & Pick<EndpointScope, 'keyId' | 'permissions'>,
    body: Pick<CreateWebhookEndpointDto, 'url' | 'description' | 'enabled' | 'enabled_events'>,
  ): Promise<WebhookEndpointWithSecretDto> {
    const enabledEvents = parseEnabledEvents(body.enabled_events ?? [ALL_EVENTS]);
    this.mayRegister(owner, enabledEvents);
    if (!isUuid(owner.integratorId) || !(await this.endpoints.integratorExists(owner.integratorId.toLowerCase()))) {
      throw ApiError.of('not_found', `No integrator has the id ${owner.integratorId}.`);
    }
    const url = await this.checkedUrl(body.url, owner.environment);
    const secret = generateSecret();
    const enabled = body.enabled ?? true;
    const endpoint = await this.endpoints.save(this.db.manager, {
      integratorId: owner.integratorId.toLowerCase(),
      environment: owner.environment,
      url,
      description: body.description ?? '',
      enabled,
      permissions: this.recordedPermissions(owner),
      enabledEvents,
      apiKeyId: owner.keyId ?? null,
      disabledReason: enabled ? null : 'requested',
      disabledAt: enabled ? null : new Date(),
      secret: encryptSecret(secret, this.settings.webhooks.secretKey),
      previousSecret: null,
      previousSecretExpiresAt: null,
      failingSince: null,
    });
    return { ...presentEndpoint(endpoint), secret };
  }

  async get(scope: EndpointScope, id: string): Promise<WebhookEndpointDto> {
    return presentEndpoint(await this.find(this.db.manager, scope, id));
  }

  /**
   * Changes the URL, the description, the enabled flag or the event types. Enabling an endpoint (also one Flusso
   * disabled) clears its failure record and resumes its pending deliveries at once. A new URL is a new registration: it
   * needs what creating an endpoint needs, and the endpoint takes the permissions of the key that sent it. New event
   * types need their read permission in the key, and (unless the URL changes too) in the endpoint's recorded
   * permissions, which they never widen: the secret's holder may be another than the key choosing them.
   */
  async update(scope: EndpointScope, id: string, changes: UpdateWebhookEndpointDto): Promise<WebhookEndpointDto> {
    if (changes.url === undefined && changes.description === undefined && changes.enabled === undefined && changes.enabled_events === undefined) {
      throw ApiError.of('bad_request', 'The body names no member to update; send url, description, enabled or enabled_events.');
    }
    const enabledEvents = changes.enabled_events === undefined ? undefined : parseEnabledEvents(changes.enabled_events);
    const found = await this.find(this.db.manager, scope, id);
    if (changes.url !== undefined || enabledEvents !== undefined) this.mayRegister(scope, enabledEvents ?? found.enabledEvents);
    const url = changes.url === undefined ? undefined : await this.checkedUrl(changes.url, found.environment);
    return this.db.transaction(async (manager) => {
      const endpoint = await this.find(manager, scope, found.id, true);
      if (url !== undefined) Object.assign(endpoint, { url, permissions: this.recordedPermissions(scope), apiKeyId: scope.keyId ?? null });
      else if (enabledEvents !== undefined) this.mayChoose(endpoint, enabledEvents);
      if (enabledEvents !== undefined) endpoint.enabledEvents = enabledEvents;
      if (changes.description !== undefined) endpoint.description = changes.description;
      if (changes.enabled === true && !endpoint.enabled) {
        Object.assign(endpoint, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
        await this.deliveries.resumeEndpoint(manager, endpoint.id);
      } else if (changes.enabled === false && endpoint.enabled) {
        Object.assign(endpoint, { enabled: false, disabledReason: 'requested', disabledAt: new Date() });
      }
      return presentEndpoint(await this.endpoints.save(manager, endpoint));
    });
  }

  /** Deletes the endpoint with its deliveries and their attempts. */
  async remove(scope: EndpointScope, id: string): Promise<WebhookEndpointDto> {
    const endpoint = await this.find(this.db.manager, scope, id);
    if (!(await this.endpoints.delete(endpoint.id))) throw ApiError.notFound('Webhook endpoint');
    return presentEndpoint(endpoint);
  }

  /**
   * A new signing secret, shown once. The one it replaces keeps signing beside it for 24 hours (both signatures in
   * `webhook-signature`), so the receiver can switch without refusing an event; rotating again ends that at once.
   */
  async rotateSecret(scope: EndpointScope, id: string): Promise<WebhookEndpointWithSecretDto> {
    const secret = generateSecret();
    return this.db.transaction(async (manager) => {
      const endpoint = await this.find(manager, scope, id, true);
      // The secret signs every event the endpoint receives: whoever holds it must be able to read them.
      const received = permissionsOfEventsReceived(new Set(endpoint.permissions), registeredTypes(endpoint.enabledEvents));
      const missing = scope.permissions && missingPermission(scope.permissions, received);
      if (missing) throw ApiError.insufficientPermission(missing, 'the secret signs the events this endpoint receives, which carry what it reads');
      endpoint.previousSecret = endpoint.secret;
      endpoint.previousSecretExpiresAt = new Date(Date.now() + ROTATION_OVERLAP_MS);
      endpoint.secret = encryptSecret(secret, this.settings.webhooks.secretKey);
      return { ...presentEndpoint(await this.endpoints.save(manager, endpoint)), secret };
    });
  }

  async listDeliveries(scope: EndpointScope, id: string, params: QueryParams): Promise<Page<WebhookDeliveryDto>> {
    const endpoint = await this.find(this.db.manager, scope, id);
    return this.deliveries.webhookDeliveries(endpoint.id, params);
  }

  /**
   * Sends an event to the endpoint again, as a new schedule of attempts: a delivery that succeeded or failed becomes
   * pending and is due at once; a pending one stays as it is. The event must belong to a company the integrator is
   * granted (an operator may replay any). A replay is an explicit request for one event: it is sent whatever the
   * endpoint's `enabled_events` say (which choose what the fan-out sends), its permissions still applying.
   */
  async replay(scope: EndpointScope, id: string, eventId: string): Promise<WebhookDeliveryDto> {
    const endpoint = await this.find(this.db.manager, scope, id);
    if (!isUuid(eventId)) throw ApiError.notFound('Event', '/event_id');
    const type = await this.deliveries.grantedEventType(endpoint.integratorId, eventId.toLowerCase());
    if (type) this.mayReplay(scope, endpoint, type);
    const replayed = await this.deliveries.replayWebhook(endpoint.id, endpoint.integratorId, eventId.toLowerCase());
    if (!replayed) throw ApiError.notFound('Event', '/event_id');
    return replayed;
  }

  /**
   * Sends the endpoint a test event (TEST_EVENT_TYPE) through the outbound pipeline as any event: a delivery of its
   * own, signed, retried and reported like the others, to this endpoint alone. It carries no company's data, so it
   * needs no read permission. A disabled endpoint is sent nothing (409: enable it first), and an endpoint is sent at
   * most TEST_EVENTS_PER_WINDOW test events per TEST_WINDOW_MS (429 with `retry-after`).
   */
  async test(scope: EndpointScope, id: string): Promise<WebhookDeliveryDto> {
    const endpoint = await this.find(this.db.manager, scope, id);
    if (!endpoint.enabled) {
      throw ApiError.of(
        'conflict',
        `Endpoint ${endpoint.id} is disabled (${apiEnum(endpoint.disabledReason ?? 'requested')}), and nothing is sent to a disabled endpoint: enable it ({"enabled": true}), then send the test event.`,
      );
    }
    const requestedAt = new Date();
    const message = {
      id: randomUUID(),
      event: TEST_EVENT_TYPE,
      created_at: requestedAt.toISOString(),
      data: { endpoint_id: endpoint.id, requested_at: requestedAt.toISOString() },
    };
    const queued = await this.deliveries.enqueueWebhookMessage(endpoint.id, message, TEST_EVENTS_PER_WINDOW, new Date(requestedAt.getTime() - TEST_WINDOW_MS));
    if ('oldest' in queued) {
      const retryAfter = Math.max(1, Math.ceil((queued.oldest.getTime() + TEST_WINDOW_MS - requestedAt.getTime()) / 1000));
      throw ApiError.of(
        'too_many_requests',
        `Endpoint ${endpoint.id} was sent ${TEST_EVENTS_PER_WINDOW} test events in the last ${TEST_WINDOW_MS / 1000} seconds; retry in ${retryAfter} seconds.`,
        undefined,
        { 'retry-after': String(retryAfter) },
      );
    }
    return queued;
  }

  /** A key may point an endpoint to a URL, or choose its event types, only if it may read every event it chooses there. */
  private mayRegister(scope: EndpointScope, enabledEvents: readonly string[]): void {
    const types = registeredTypes(enabledEvents);
    const missing = scope.permissions && missingPermission(scope.permissions, new Set(types.map((type) => EVENT_PERMISSIONS[type])));
    if (missing) {
      const named = types.filter((type) => EVENT_PERMISSIONS[type] === missing);
      const received = named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : named[0];
      const carried = missing === 'documents:read' ? 'documents in full' : `what ${missing} reads`;
      throw ApiError.insufficientPermission(missing, `an endpoint receives the ${received} events, which carry ${carried}`);
    }
  }

  /** Event types named for an endpoint must be readable by its recorded permissions, which choosing them does not widen. */
  private mayChoose(endpoint: WebhookEndpoint, enabledEvents: readonly string[]): void {
    if (enabledEvents.includes(ALL_EVENTS)) return;
    const unread = enabledEvents.find((type) => !receives(new Set(endpoint.permissions), type));
    if (unread) {
      throw ApiError.of(
        'conflict',
        `Endpoint ${endpoint.id} cannot receive ${unread} events: the key that registered it, or last changed its URL, may not read them (${(EVENT_PERMISSIONS as Record<string, string>)[unread]}). Change its URL with a key that may, in the same request.`,
        '/enabled_events',
      );
    }
  }

  /** An event is sent again only to an endpoint that receives its type, at the request of a key that may read it. */
  private mayReplay(scope: EndpointScope, endpoint: WebhookEndpoint, type: string): void {
    const needed = (EVENT_PERMISSIONS as Record<string, string | undefined>)[type];
    if (scope.permissions && (!needed || !receives(scope.permissions, type))) {
      throw ApiError.insufficientPermission(needed ?? '*', `the event ${type} carries what it reads`);
    }
    if (!receives(new Set(endpoint.permissions), type)) {
      throw ApiError.of(
        'conflict',
        `Endpoint ${endpoint.id} does not receive ${type} events: the key that registered it, or last changed its URL, may not read them (${needed}). Change its URL with a key that may, then replay.`,
        '/event_id',
      );
    }
  }

  /** The permissions an endpoint records for the key that registers it or changes its URL; an operator's are `*`. */
  private recordedPermissions(scope: EndpointScope): string[] {
    return scope.permissions ? ALL_PERMISSIONS.filter((p) => scope.permissions!.has(p)) : ['*'];
  }

  private async checkedUrl(raw: string, environment: Environment): Promise<string> {
    try {
      return (await checkUrl(raw.trim(), environment)).toString();
    } catch (error) {
      if (error instanceof UrlNotAllowedError) throw ApiError.of('webhook_url_not_allowed', error.message, '/url');
      throw error;
    }
  }

  private async find(manager: EntityManager, scope: EndpointScope, id: string, lock = false): Promise<WebhookEndpoint> {
    if (!isUuid(id)) throw ApiError.notFound('Webhook endpoint');
    const endpoint = await this.endpoints.byId(manager, id.toLowerCase(), lock);
    if (
      !endpoint ||
      (scope.integratorId && endpoint.integratorId !== scope.integratorId) ||
      (scope.environment && endpoint.environment !== scope.environment)
    ) {
      throw ApiError.notFound('Webhook endpoint');
    }
    return endpoint;
  }
}
