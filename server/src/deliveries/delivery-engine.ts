import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CLOCK, type Clock } from '../common/clock/clock.port.js';
import { PgListener } from '../common/database/pg-listener.js';
import { WORK_CHANNELS } from '../common/database/work-channels.js';
import { API_VERSION } from '../config/api-version.js';
import { WorkerLoop } from '../common/events/worker-loop.js';
import { DeliveriesRepository, type AttemptRow, type ChannelClaim } from './deliveries.repository.js';
import { DELIVERY_SENDERS, type AttemptResult, type ClaimedDelivery, type DeliverySender, type Outcome } from './delivery-sender.js';
import type { Channel, MailMessage, WebhookMessage } from './delivery.entity.js';
import { nextAttemptDelay } from './retry-schedule.js';

/** Deliveries claimed per query. */
const CLAIM_BATCH = 500;
/** Longest sleep without a notification: covers notifications lost while the LISTEN connection was down. */
const POLL_MS = 1000;
/** How often waiting deliveries left behind by a race are looked for. */
const RELEASE_MS = 5000;
/** A lease is a channel's longest attempt and this: time to record the attempt, and for a busy process. */
const LEASE_MARGIN_MS = 10_000;
/** A delivery not sent this long after it was claimed (the process stalled) is given back instead: its lease may not last. */
const SEND_WITHIN_MS = LEASE_MARGIN_MS / 2;
/** The error of an attempt whose worker stopped before recording it. */
const LOST_ATTEMPT = 'the worker sending it stopped before its outcome was known: the receiver may have it';

/** A webhook composed up front (a test event), as its channel sends events: about no company. */
const composedEvent = (message: WebhookMessage): NonNullable<ClaimedDelivery['event']> => ({
  id: message.id,
  companyId: null,
  type: message.event,
  apiVersion: API_VERSION,
  createdAt: new Date(message.created_at),
  payload: message.data,
});

/**
 * The delivery core: claims due deliveries from PostgreSQL in batches (FOR UPDATE SKIP LOCKED, so any number of
 * workers share the work and none takes a delivery another holds), sends them concurrently through their channel's
 * sender, and records the attempts in bulk. PostgreSQL is the only record: a claim moves `next_attempt_at` forward by a
 * lease, so a delivery whose worker died is due again when the lease ends, and nothing depends on Redis.
 *
 * Each channel is claimed up to its own room (its sender's concurrency) and leased for longer than its longest attempt,
 * which the engine enforces by cutting an overrunning attempt off (recorded `unknown`). A claim is named (`claim_id`):
 * a delivery is sent only soon after its claim, its attempt is recorded on the delivery only while the claim still
 * holds it, and a claim that finds an earlier claim never recorded (its worker died) records that attempt as `unknown`,
 * so the possible duplicate shows in the delivery's attempts.
 *
 * Order (delivery-order.ts): a delivery behind an earlier one of its document is made `waiting` when fanned out, and
 * is let go when the earlier one's first attempt is recorded, in the same transaction. A fan-out and a recording that
 * run at the same moment may each miss the other's rows; every RELEASE_MS the engine lets go of any waiting delivery
 * that no longer has a reason to wait.
 *
 * What is due and when a lease ends are read from the clock port (the worker's clock), so tests move time instead of
 * waiting for retries and leases; every worker of a fleet reads the same time from its synchronised system clock.
 */
@Injectable()
export class DeliveryEngine extends WorkerLoop {
  protected readonly logger = new Logger(DeliveryEngine.name);
  private readonly senders: Map<string, DeliverySender>;
  /** Each channel's lease, in milliseconds. */
  private readonly leases = new Map<Channel, number>();
  /** Attempts per channel sent or being recorded; a cut-off attempt counts until its sender lets go of it too. */
  private readonly inFlight = new Map<Channel, number>();
  /**
   * Deliveries this engine has claimed and not yet recorded. A stalled process (a busy machine) can outlive its lease;
   * it then must not claim its own deliveries a second time, and send them twice, while their first attempt is still
   * being sent or recorded here.
   */
  private readonly held = new Set<string>();
  private finished: Array<Outcome & { done: () => void }> = [];
  private recording?: Promise<void>;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    @Inject(DELIVERY_SENDERS) senders: DeliverySender[],
    @Inject(CLOCK) clock: Clock,
    listener: PgListener,
  ) {
    super({ what: 'delivery loop', idleMs: POLL_MS, sweepEveryMs: RELEASE_MS, channel: WORK_CHANNELS.deliveries }, clock, listener);
    this.senders = new Map(senders.map((sender) => [sender.channel, sender]));
    for (const sender of senders) {
      // Long enough for an attempt to be cut off and recorded; a delivery held longer belonged to a worker that died.
      this.leases.set(sender.channel, sender.attemptLimitMs + LEASE_MARGIN_MS);
      this.inFlight.set(sender.channel, 0);
    }
  }

  /** Stops claiming, then waits for the attempts in flight to end and be recorded. */
  override async onApplicationShutdown(): Promise<void> {
    await super.onApplicationShutdown();
    while (this.busy() > 0 || this.recording) await (this.recording ?? new Promise((resolve) => setTimeout(resolve, 20)));
  }

  private busy(): number {
    let total = 0;
    for (const count of this.inFlight.values()) total += count;
    return total;
  }

  /** Lets go, every RELEASE_MS, of waiting deliveries a race left behind. */
  protected override periodically(): Promise<number> {
    return this.deliveries.releaseStranded();
  }

  /** Claims what each channel has room for and sends it; sleeps until the next delivery is due when nothing was. */
  protected async round(): Promise<number> {
    const rooms = new Map<Channel, ChannelClaim>();
    for (const sender of this.senders.values()) {
      const room = Math.min(sender.concurrency - this.inFlight.get(sender.channel)!, CLAIM_BATCH);
      if (room > 0) rooms.set(sender.channel, { room, leaseMs: this.leases.get(sender.channel)! });
    }
    let wanted = 0;
    for (const { room } of rooms.values()) wanted += room;
    const claimedAt = performance.now();
    const claimed = wanted > 0 ? await this.claim(rooms) : [];
    // Claimed too long ago (a stalled process, a slow claim): the lease may end before the attempts do.
    if (performance.now() - claimedAt > SEND_WITHIN_MS) await this.giveBack(claimed);
    else for (const delivery of claimed) this.dispatch(delivery);
    if (claimed.length > 0 && claimed.length === wanted) return 0;
    return claimed.length > 0 || wanted === 0 ? POLL_MS : this.untilNextDue();
  }

  /** Claims due deliveries, up to each channel's room, with what their senders need. */
  async claim(rooms: Map<Channel, ChannelClaim>): Promise<ClaimedDelivery[]> {
    const claim = randomUUID();
    const rows = await this.deliveries.claimDue(rooms, [...this.held], claim, this.clock.now(), LOST_ATTEMPT);
    const events = new Map<string, NonNullable<ClaimedDelivery['event']>>();
    for (const row of rows) {
      if (row.event_id && row.payload) {
        events.set(row.event_id as string, {
          id: row.event_id as string,
          companyId: row.company_id as string,
          type: row.type as string,
          apiVersion: row.api_version as string,
          createdAt: row.event_created_at as Date,
          payload: row.payload as Record<string, unknown>,
        });
      }
    }
    return rows.map((row) => ({
      id: row.id as string,
      claim,
      channel: row.channel as ClaimedDelivery['channel'],
      attempts: row.attempts as number,
      message: row.channel === 'mail' ? (row.message as MailMessage) : null,
      endpoint: row.endpoint_id
        ? {
            id: row.endpoint_id as string,
            integratorId: row.integrator_id as string,
            url: row.url as string,
            permissions: row.permissions as string[],
            secret: row.secret as string,
            previousSecret: row.previous_secret as string | null,
            previousSecretExpiresAt: row.previous_secret_expires_at as Date | null,
            failingSince: row.failing_since as Date | null,
            updatedAt: row.updated_at as Date,
          }
        : null,
      event: row.event_id ? events.get(row.event_id as string)! : row.channel === 'webhook' ? composedEvent(row.message as WebhookMessage) : null,
    }));
  }

  /** Lets go of the waiting deliveries with no earlier one left to wait for. */
  releaseStranded(): Promise<number> {
    return this.deliveries.releaseStranded();
  }

  /** How long to sleep when nothing is due: until the next delivery is, at most POLL_MS. */
  private async untilNextDue(): Promise<number> {
    const now = this.clock.now();
    const at = await this.deliveries.nextDueAt([...this.senders.keys()] as Channel[], now);
    return at ? Math.min(POLL_MS, at.getTime() - now.getTime() + 5) : POLL_MS;
  }

  /** Sends a claimed delivery, cut off at its channel's attempt limit. */
  private dispatch(delivery: ClaimedDelivery): void {
    const channel = delivery.channel;
    this.inFlight.set(channel, this.inFlight.get(channel)! + 1);
    this.held.add(delivery.id);
    const sender = this.senders.get(channel)!;
    const attemptedAt = new Date();
    const failure = (error: string, unknown = false): AttemptResult => ({
      ok: false,
      attemptedAt,
      durationMs: Date.now() - attemptedAt.getTime(),
      responseStatus: null,
      responseBody: null,
      error,
      unknown,
    });
    const abort = new AbortController();
    let cancelCutOff = () => {};
    const cutOff = new Promise<AttemptResult>((resolve) => {
      cancelCutOff = this.clock.setTimer(sender.attemptLimitMs, () => {
        abort.abort();
        resolve(failure(`cut off after ${sender.attemptLimitMs} ms: the receiver may have it`, true));
      });
    });
    // Counted in flight until both the attempt is recorded and the sender has let go of it.
    let holds = 2;
    const letGo = () => {
      if (--holds === 0) this.inFlight.set(channel, this.inFlight.get(channel)! - 1);
    };
    const sent = sender.send(delivery, abort.signal).catch((error: Error) => failure(error.message));
    void sent.finally(() => {
      cancelCutOff();
      letGo();
    });
    void Promise.race([sent, cutOff]).then((result) => {
      this.finished.push({ delivery, result, done: letGo });
      this.record();
    });
  }

  /** Gives claimed deliveries back unsent (due at once), those this claim still holds; others find them at the lease's end. */
  private async giveBack(claimed: ClaimedDelivery[]): Promise<void> {
    if (claimed.length === 0) return;
    this.logger.warn(`${claimed.length} deliveries claimed more than ${SEND_WITHIN_MS} ms ago given back unsent`);
    await this.deliveries.giveBack(
      claimed.map((delivery) => delivery.id),
      claimed[0].claim,
      this.clock.now(),
    );
  }

  /** Records finished attempts, all that have piled up since the last write, in one transaction. */
  private record(): void {
    if (this.recording || this.finished.length === 0) return;
    const batch = this.finished;
    this.finished = [];
    this.recording = this.write(batch)
      .then(
        () => undefined,
        (error: Error) => {
          // Unrecorded attempts are made again when their lease ends: at least once, never lost.
          this.logger.error(`recording ${batch.length} attempt(s) failed: ${error.message}`);
        },
      )
      .finally(() => {
        for (const { delivery, done } of batch) {
          this.held.delete(delivery.id);
          done();
        }
        this.recording = undefined;
        this.wake();
        this.record();
      });
  }

  private async write(outcomes: Outcome[]): Promise<void> {
    const now = this.clock.now();
    const rows = outcomes.map(({ delivery, result }): AttemptRow => {
      const made = delivery.attempts + 1;
      const delay = result.ok || result.permanent ? null : nextAttemptDelay(this.senders.get(delivery.channel)!.retrySchedule, made, result.retryAfterMs);
      return {
        deliveryId: delivery.id,
        claim: delivery.claim,
        attemptedAt: result.attemptedAt,
        outcome: result.ok ? 'succeeded' : result.unknown ? 'unknown' : 'failed',
        durationMs: result.durationMs,
        responseStatus: result.responseStatus,
        responseBody: result.responseBody,
        error: result.error,
        status: result.ok ? 'succeeded' : delay === null ? 'failed' : 'pending',
        nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay),
      };
    });
    await this.deliveries.recordAttempts(rows, now, async (manager) => {
      for (const sender of this.senders.values()) {
        const own = outcomes.filter((o) => o.delivery.channel === sender.channel);
        if (own.length && sender.settle) await sender.settle(manager, own);
      }
    });
  }
}
