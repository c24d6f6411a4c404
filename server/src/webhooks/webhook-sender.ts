import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DeliveriesService } from '../deliveries/deliveries.service.js';
import type { AttemptResult, ClaimedDelivery, DeliverySender, Outcome } from '../deliveries/delivery-sender.js';
import { parseRetryAfter } from '../deliveries/retry-schedule.js';
import { API_VERSION } from '../config/api-version.js';
import { disabledEndpointNotice } from './endpoint-notice.js';
import { isIP } from 'node:net';
import { checkUrlShape, hostOf, isLoopback, LoopbackAddressError, type Reach, UrlNotAllowedError } from './url-guard.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WEBHOOK_HTTP, type WebhookAnswer, type WebhookHttp } from './webhook-http.port.js';
import { EVENT_PERMISSIONS, receives } from './event-permissions.js';
import { decryptSecret, secretKey, sign } from './webhook-secrets.js';
import { presentEvent } from '../common/events/event.presenter.js';

export const USER_AGENT = `Flusso-Webhooks/${API_VERSION} (+https://developers.flusso.example/basics/webhook)`;
/** Request bodies of the events in flight: a claim hands every endpoint of an event the same event object. */
const bodies = new WeakMap<object, string>();

/**
 * The webhook channel: signs each event as Standard Webhooks and POSTs it through the webhook HTTP port (the undici
 * driver: pooled keep-alive connections, redirects not followed, sockets opened only through the SSRF guard's
 * lookup), each attempt bounded by WEBHOOK_TIMEOUT_MS.
 *
 * Development also reaches loopback receivers, through a pool of its own whose sockets reach nothing else: an answer
 * that came through it is from the worker's own machine (another service there, if the sandbox is hosted), so its
 * body and redirect target are not kept unless WEBHOOK_EXPOSE_LOOPBACK_RESPONSES is true. A host name goes to the
 * public pool first and, when it resolves to loopback, to the loopback one, each pool checking at connect time.
 */
@Injectable()
export class WebhookSender implements DeliverySender, OnApplicationShutdown {
  readonly channel = 'webhook' as const;
  readonly retrySchedule: readonly number[];
  /** WEBHOOK_TIMEOUT_MS bounds the whole request (below); the engine's cut-off is only a safety net past it. */
  readonly attemptLimitMs: number;
  readonly concurrency: number;
  private readonly logger = new Logger(WebhookSender.name);
  /** Decrypted signing keys per endpoint, valid while the endpoint row is unchanged. */
  private readonly keys = new Map<string, { stamp: number; current: Buffer; previous: Buffer | null }>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(WEBHOOK_HTTP) private readonly http: WebhookHttp,
    private readonly deliveries: DeliveriesService,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {
    this.retrySchedule = config.webhooks.retrySchedule;
    this.attemptLimitMs = config.webhooks.timeoutMs + 1000;
    this.concurrency = config.webhooks.concurrency;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }

  /** The request body: the event as the events API answers it (common/events/event.presenter.ts); `company_id` null for a test event. */
  static body(event: NonNullable<ClaimedDelivery['event']>): string {
    let body = bodies.get(event);
    if (body === undefined) {
      body = JSON.stringify(presentEvent(event));
      bodies.set(event, body);
    }
    return body;
  }

  /** `webhook-signature`: one signature per valid secret, the current one first. */
  signature(delivery: ClaimedDelivery, timestamp: number, body: string, now = Date.now()): string {
    const endpoint = delivery.endpoint!;
    const stamp = endpoint.updatedAt.getTime();
    let keys = this.keys.get(endpoint.id);
    if (!keys || keys.stamp !== stamp) {
      if (this.keys.size > 10_000) this.keys.clear();
      const key = this.config.webhooks.secretKey;
      keys = {
        stamp,
        current: secretKey(decryptSecret(endpoint.secret, key)),
        previous: endpoint.previousSecret ? secretKey(decryptSecret(endpoint.previousSecret, key)) : null,
      };
      this.keys.set(endpoint.id, keys);
    }
    const signatures = [sign(keys.current, delivery.event!.id, timestamp, body)];
    if (keys.previous && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > now) {
      signatures.push(sign(keys.previous, delivery.event!.id, timestamp, body));
    }
    return signatures.join(' ');
  }

  async send(delivery: ClaimedDelivery): Promise<AttemptResult> {
    const attemptedAt = new Date();
    const started = performance.now();
    const failed = (error: string, responseStatus: number | null = null, responseBody: string | null = null): AttemptResult => ({
      ok: false,
      attemptedAt,
      durationMs: performance.now() - started,
      responseStatus,
      responseBody,
      error,
    });
    const event = delivery.event!;
    // The fan-out and replays already keep such deliveries out; this holds for any queued before the endpoint's
    // permissions were recorded. A test event (about no company) carries nothing a read permission guards.
    if (event.companyId !== null && !receives(new Set(delivery.endpoint!.permissions), event.type)) {
      const needed = (EVENT_PERMISSIONS as Record<string, string | undefined>)[event.type] ?? 'a known event type';
      return { ...failed(`refused: the endpoint's permissions do not include ${needed}, which ${event.type} needs`), permanent: true };
    }
    let url: URL;
    try {
      // The URL was checked when registered; the scheme and a literal address are checked again (the rules may be
      // stricter now), and the connection itself goes through the guarded lookup.
      url = checkUrlShape(delivery.endpoint!.url, this.config.environment);
    } catch (error) {
      return failed(`refused: ${(error as Error).message}`);
    }
    const body = WebhookSender.body(event);
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const signal = AbortSignal.timeout(this.config.webhooks.timeoutMs);
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': this.signature(delivery, timestamp, body, attemptedAt.getTime()),
    };
    // `signal` ends the whole request (connecting, headers, body) before the engine's cut-off, whose signal is not needed.
    const post = (reach: Reach) => this.http.post(url, reach, headers, body, signal);
    const host = hostOf(url);
    const development = this.config.environment === 'development';
    let reach: Reach = development && isIP(host) && isLoopback(host) ? 'loopback' : 'public';
    try {
      let response: WebhookAnswer;
      try {
        response = await post(reach);
      } catch (error) {
        const cause = error as Error & { cause?: Error };
        if (!development || reach === 'loopback' || !(cause instanceof LoopbackAddressError || cause.cause instanceof LoopbackAddressError)) throw error;
        reach = 'loopback';
        response = await post(reach);
      }
      // What a service on the worker's own machine answers is not shown to whoever registered the endpoint.
      const shown = reach === 'public' || this.config.webhooks.exposeLoopbackResponses;
      const status = response.status;
      const result: AttemptResult = {
        ok: status >= 200 && status < 300,
        attemptedAt,
        durationMs: performance.now() - started,
        responseStatus: status,
        responseBody: shown ? response.excerpt : null,
        error: null,
      };
      if (status >= 300 && status < 400) {
        result.error = `redirect not followed${shown && response.headers.location ? ` (to ${String(response.headers.location)})` : ''}`;
      }
      if (status === 410) result.gone = true;
      if (status === 429 || status === 503) result.retryAfterMs = parseRetryAfter(response.headers['retry-after'], attemptedAt.getTime());
      return result;
    } catch (error) {
      const cause = error as Error & { code?: string; cause?: Error };
      if (cause.name === 'TimeoutError' || cause.name === 'AbortError' || cause.code === 'UND_ERR_HEADERS_TIMEOUT' || cause.code === 'UND_ERR_BODY_TIMEOUT') {
        return failed(`timed out after ${this.config.webhooks.timeoutMs} ms`);
      }
      if (cause instanceof UrlNotAllowedError || cause.cause instanceof UrlNotAllowedError) return failed(`refused: ${(cause.cause ?? cause).message}`);
      return failed([cause.code, cause.message].filter(Boolean).join(': '));
    }
  }

  /**
   * What the batch says about each endpoint: any success clears its failure record; a failure starts one; a 410, or
   * failures for longer than WEBHOOK_DISABLE_AFTER_HOURS, disable it, and its integrator is told by e-mail (a delivery
   * of the mail channel, made in this same transaction).
   */
  async settle(manager: EntityManager, outcomes: Outcome[]): Promise<void> {
    const byEndpoint = new Map<string, { succeeded: boolean; firstFailure: Date | null; gone: boolean; known: Date | null; lastError: string }>();
    for (const { delivery, result } of outcomes) {
      const endpoint = delivery.endpoint!;
      const entry = byEndpoint.get(endpoint.id) ?? { succeeded: false, firstFailure: null, gone: false, known: endpoint.failingSince, lastError: '' };
      if (result.ok) entry.succeeded = true;
      else {
        if (!entry.firstFailure || result.attemptedAt < entry.firstFailure) entry.firstFailure = result.attemptedAt;
        entry.lastError = result.responseStatus ? `HTTP ${result.responseStatus}${result.error ? ` (${result.error})` : ''}` : (result.error ?? 'failed');
      }
      if (result.gone) entry.gone = true;
      byEndpoint.set(endpoint.id, entry);
    }
    const disableBefore = new Date(Date.now() - this.config.webhooks.disableAfterMs);
    // Only endpoints whose state may change are written, so a healthy endpoint costs no update.
    const changes = [...byEndpoint].filter(([, e]) => e.gone || (e.succeeded ? e.known !== null : e.known === null || e.known < disableBefore));
    if (changes.length === 0) return;
    const disabled = await this.endpoints.recordHealth(
      manager,
      changes.map(([id, e]) => ({ id, succeeded: e.succeeded, firstFailure: e.firstFailure, gone: e.gone })),
      disableBefore,
    );
    for (const endpoint of disabled) {
      const lastError = byEndpoint.get(endpoint.id)!.lastError;
      this.logger.warn(`webhook endpoint ${endpoint.id} (${endpoint.url}) disabled: ${endpoint.disabled_reason}, last error ${lastError}`);
      if (!endpoint.contact_email) {
        this.logger.warn(
          `integrator "${endpoint.name}" has no contact e-mail: the disabled endpoint ${endpoint.id} shows only in the API (enabled: false) and in webhook:list`,
        );
        continue;
      }
      const message = disabledEndpointNotice({ ...endpoint, to: endpoint.contact_email, lastError, environment: this.config.environment });
      await this.deliveries.enqueueMail(manager, message);
    }
  }
}
