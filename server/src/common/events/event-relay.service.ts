import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';

export const EVENTS_QUEUE = 'events';
const BATCH = 100;
const IDLE_MS = 500;

export interface EventJob {
  id: string;
  company_id: string;
  event: string;
  created_at: string;
  data: Record<string, unknown>;
}

/**
 * The outbox relay: moves recorded events, oldest first, into the BullMQ `events` queue from which deliveries
 * (webhooks) are made. Rows are claimed with SKIP LOCKED so any number of workers can relay side by side; the job
 * id is the event id, so an event relayed twice after a crash is still queued once.
 */
@Injectable()
export class EventRelayService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventRelayService.name);
  private running = false;
  private loop?: Promise<void>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(EVENTS_QUEUE) private readonly queue: Queue<EventJob>,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** Relays one batch; returns how many events it moved. */
  async relayBatch(): Promise<number> {
    return this.db.transaction(async (manager) => {
      const rows: Array<{ id: string; company_id: string; type: string; payload: Record<string, unknown>; created_at: Date }> =
        await manager.query(
          `SELECT id, company_id, type, payload, created_at FROM events
            WHERE relayed_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [BATCH],
        );
      if (rows.length === 0) return 0;
      await this.queue.addBulk(
        rows.map((row) => ({
          name: row.type,
          data: { id: row.id, company_id: row.company_id, event: row.type, created_at: row.created_at.toISOString(), data: row.payload },
          opts: { jobId: row.id, removeOnComplete: 1000, removeOnFail: false },
        })),
      );
      await manager.query('UPDATE events SET relayed_at = now() WHERE id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
      return rows.length;
    });
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        if ((await this.relayBatch()) === BATCH) continue;
      } catch (error) {
        this.logger.error(`relay failed, retrying: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    }
  }
}
