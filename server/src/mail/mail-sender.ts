import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { AttemptResult, ClaimedDelivery, DeliverySender } from '../deliveries/delivery-sender.js';
import { RESPONSE_EXCERPT_BYTES } from '../deliveries/delivery-sender.js';
import { MAILER, type MailError, type Mailer } from './mailer.port.js';

/**
 * The mail channel of the delivery core: sends a delivery's composed message through the mailer port, at most
 * MAIL_CONNECTIONS at once (one per pooled connection, so none waits in the pool's queue), each step of the exchange
 * bounded by MAIL_TIMEOUT_MS. An attempt the engine cuts off (a slow exchange whose every step kept within the
 * timeout) is aborted: its connection is closed, so a message not yet handed over in full is never confirmed later,
 * after a retry has sent it again.
 */
@Injectable()
export class MailSender implements DeliverySender {
  readonly channel = 'mail' as const;
  readonly retrySchedule: readonly number[];
  readonly attemptLimitMs: number;
  readonly concurrency: number;

  constructor(
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.retrySchedule = config.mail.retrySchedule;
    // Connecting, the greeting and each reply may each take up to the timeout; a healthy exchange takes far less.
    this.attemptLimitMs = 2 * config.mail.timeoutMs;
    this.concurrency = config.mail.connections;
  }

  async send(delivery: ClaimedDelivery, signal?: AbortSignal): Promise<AttemptResult> {
    const attemptedAt = new Date();
    const started = performance.now();
    try {
      const receipt = await this.mailer.send(delivery.message!, { id: delivery.id, signal });
      return {
        ok: true,
        attemptedAt,
        durationMs: performance.now() - started,
        responseStatus: Number.parseInt(receipt.response, 10) || null,
        responseBody: receipt.response.slice(0, RESPONSE_EXCERPT_BYTES),
        error: null,
      };
    } catch (error) {
      const refusal = error as MailError;
      return {
        ok: false,
        attemptedAt,
        durationMs: performance.now() - started,
        responseStatus: refusal.responseCode ?? null,
        // 5xx is the server's final word (no such mailbox, message refused); 4xx and connection errors are worth a retry.
        permanent: refusal.responseCode !== undefined && refusal.responseCode >= 500,
        responseBody: refusal.response?.slice(0, RESPONSE_EXCERPT_BYTES) ?? null,
        error: refusal.message,
      };
    }
  }
}
