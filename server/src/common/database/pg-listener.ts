import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import pg from 'pg';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { WORK_CHANNELS } from './work-channels.js';

type Channel = (typeof WORK_CHANNELS)[keyof typeof WORK_CHANNELS];

/**
 * The worker's one LISTEN connection to PostgreSQL (DATABASE_DIRECT_URL): wakes the fan-out when events are committed and the delivery engine
 * when deliveries are, so neither waits for its poll. The connection comes back by itself after a failure, and every
 * listener is woken then, since notifications sent meanwhile are lost (the loops' polls cover that gap too).
 */
@Injectable()
export class PgListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(PgListener.name);
  private readonly listeners = new Map<Channel, Set<() => void>>();
  private client?: pg.Client;
  private closed = false;
  private retry?: NodeJS.Timeout;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onModuleInit(): void {
    void this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  on(channel: Channel, listener: () => void): void {
    if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
    this.listeners.get(channel)!.add(listener);
  }

  private wakeAll(): void {
    for (const set of this.listeners.values()) for (const listener of set) listener();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    // A session of its own: through a transaction-mode pooler, LISTEN would end with its transaction's server connection.
    const client = new pg.Client({ connectionString: this.config.databaseDirectUrl, application_name: 'flusso-listener' });
    this.client = client;
    const reconnect = () => {
      if (this.closed || this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => undefined);
      this.retry = setTimeout(() => void this.connect(), 1000);
    };
    client.on('error', (error) => {
      this.logger.warn(`LISTEN connection lost (${error.message}); reconnecting`);
      reconnect();
    });
    client.on('end', reconnect);
    client.on('notification', (message) => {
      for (const listener of this.listeners.get(message.channel as Channel) ?? []) listener();
    });
    try {
      await client.connect();
      for (const channel of Object.values(WORK_CHANNELS)) await client.query(`LISTEN ${channel}`);
      this.wakeAll();
    } catch (error) {
      this.logger.warn(`cannot LISTEN (${(error as Error).message}); retrying`);
      reconnect();
    }
  }
}
