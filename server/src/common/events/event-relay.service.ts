import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { OutboxLoop, withQueueTimeout } from './outbox-loop.js';
import { PgListener } from '../database/pg-listener.js';
import { WORK_CHANNELS } from '../database/work-channels.js';

export const EVENTS_QUEUE = 'events';
const BATCH = 100;
/** Longest sleep without a notification (they wake the relay as soon as an event commits). */
const IDLE_MS = 1000;
/** An event relayed this long ago and still not fanned out is checked: was its job lost? */
export const SWEEP_AFTER_MS = 5000;

export interface EventJob {
  id: string;
  company_id: string;
  event: string;
  created_at: string;
  data: Record<string, unknown>;
}

/**
 * The outbox relay: moves recorded events, oldest first, into the BullMQ `events` queue, whose consumer fans them out
 * into deliveries (webhooks/event-fan-out.ts) and sets `dispatched_at`. Rows are claimed with SKIP LOCKED so any number
 * of workers can relay side by side; the job id is the event id, so an event relayed twice after a crash is still
 * queued once. A PostgreSQL notification wakes it when events commit.
 *
 * Redis is not the record: the sweeper finds events relayed a while ago but never dispatched, and when their job is
 * gone (Redis restarted empty) or failed, queues them again. Fanning out twice adds nothing.
 */
@Injectable()
export class EventRelayService extends OutboxLoop {
  protected readonly logger = new Logger(EventRelayService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(EVENTS_QUEUE) private readonly queue: Queue<EventJob>,
    listener: PgListener,
  ) {
    super({ batch: BATCH, idleMs: IDLE_MS, sweepEveryMs: SWEEP_AFTER_MS, what: 'relay' });
    listener.on(WORK_CHANNELS.events, this.doorbell.ring);
  }

  /** Relays one batch; returns how many events it moved. */
  async relayBatch(): Promise<number> {
    return this.db.transaction(async (manager) => {
      const rows: Array<{ id: string; company_id: string; type: string; payload: Record<string, unknown>; created_at: Date }> = await manager.query(
        `SELECT id, company_id, type, payload, created_at FROM events
            WHERE relayed_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [BATCH],
      );
      if (rows.length === 0) return 0;
      // A queue write that fails or hangs fails the batch, whose events stay unrelayed and are tried again.
      await withQueueTimeout(
        this.queue.addBulk(
          rows.map((row) => ({
            name: row.type,
            data: { id: row.id, company_id: row.company_id, event: row.type, created_at: row.created_at.toISOString(), data: row.payload },
            opts: { jobId: row.id, removeOnComplete: 1000, removeOnFail: false, attempts: 10, backoff: { type: 'exponential', delay: 1000 } },
          })),
        ),
        'queueing events',
      );
      await manager.query('UPDATE events SET relayed_at = now() WHERE id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
      return rows.length;
    });
  }

  /**
   * Queues again the events relayed over SWEEP_AFTER_MS ago and not yet dispatched whose job is missing or failed for
   * good; returns how many.
   */
  async sweep(): Promise<number> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT id FROM events WHERE dispatched_at IS NULL AND relayed_at IS NOT NULL AND relayed_at < now() - make_interval(secs => $1::int / 1000.0)
        ORDER BY relayed_at, id LIMIT 1000`,
      [SWEEP_AFTER_MS],
    );
    const lost: string[] = [];
    for (const { id } of rows) {
      const job = await withQueueTimeout(this.queue.getJob(id), 'reading a job');
      if (!job) lost.push(id);
      else if (await withQueueTimeout(job.isFailed(), 'reading a job')) await withQueueTimeout(job.retry(), 'retrying a job');
    }
    if (lost.length) {
      this.logger.warn(`${lost.length} relayed event(s) had lost their job (Redis restarted empty?); relaying them again`);
      await this.db.query('UPDATE events SET relayed_at = NULL WHERE id = ANY($1::uuid[]) AND dispatched_at IS NULL', [lost]);
      this.doorbell.ring();
    }
    return lost.length;
  }

  protected moveBatch(): Promise<number> {
    return this.relayBatch();
  }

  protected async sweepLost(): Promise<void> {
    await this.sweep();
  }
}
