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
import { EVENT_PERMISSIONS, missingPermission, permissionsOfEventsReceived, receives, REGISTERED_EVENT_TYPES } from './event-permissions.js';

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

/** What registering an endpoint, or pointing it to a new URL, needs: the read permission of every event type it receives. */
const ALL_EVENT_PERMISSIONS = [...new Set(REGISTERED_EVENT_TYPES.map((type) => EVENT_PERMISSIONS[type]))];
const EVENT_LIST = `${REGISTERED_EVENT_TYPES.slice(0, -1).join(', ')} and ${REGISTERED_EVENT_TYPES.at(-1)}`;

export function presentEndpoint(endpoint: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    enabled: endpoint.enabled,
    permissions: ALL_PERMISSIONS.filter((p) => endpoint.permissions.includes(p)),
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
    body: Pick<CreateWebhookEndpointDto, 'url' | 'description' | 'enabled'>,
  ): Promise<WebhookEndpointWithSecretDto> {
    this.mayRegister(owner);
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
   * Changes the URL, the description or the enabled flag. Enabling an endpoint (also one Flusso disabled) clears its
   * failure record and resumes its pending deliveries at once. A new URL is a new registration: it needs what creating
   * an endpoint needs, and the endpoint takes the permissions of the key that sent it.
   */
  async update(scope: EndpointScope, id: string, changes: UpdateWebhookEndpointDto): Promise<WebhookEndpointDto> {
    if (changes.url === undefined && changes.description === undefined && changes.enabled === undefined) {
      throw ApiError.of('bad_request', 'The body names no member to update; send url, description or enabled.');
    }
    const found = await this.find(this.db.manager, scope, id);
    if (changes.url !== undefined) this.mayRegister(scope);
    const url = changes.url === undefined ? undefined : await this.checkedUrl(changes.url, found.environment);
    return this.db.transaction(async (manager) => {
      const endpoint = await this.find(manager, scope, found.id, true);
      if (url !== undefined) Object.assign(endpoint, { url, permissions: this.recordedPermissions(scope), apiKeyId: scope.keyId ?? null });
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
      const missing = scope.permissions && missingPermission(scope.permissions, permissionsOfEventsReceived(new Set(endpoint.permissions)));
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
   * granted (an operator may replay any).
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

  /** A key may point an endpoint to a URL only if it may read every event the endpoint would receive there. */
  private mayRegister(scope: EndpointScope): void {
    const missing = scope.permissions && missingPermission(scope.permissions, ALL_EVENT_PERMISSIONS);
    if (missing) throw ApiError.insufficientPermission(missing, `an endpoint receives the ${EVENT_LIST} events, which carry documents in full`);
  }

  /** An event is sent again only to an endpoint that receives its type, at the request of a key that may read it. */
  private mayReplay(scope: EndpointScope, endpoint: WebhookEndpoint, type: string): void {
    const needed = (EVENT_PERMISSIONS as Record<string, (typeof ALL_EVENT_PERMISSIONS)[number]>)[type];
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
