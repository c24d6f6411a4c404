import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { DestinationStream } from 'pino';
import { DatabaseModule } from './common/database/database.module.js';
import { EventRelayService, EVENTS_QUEUE } from './common/events/event-relay.service.js';
import { configureQueueConsumers } from './common/events/queue-consumers.js';
import { IdempotencySweeper } from './common/idempotency/idempotency-sweeper.js';
import { IdempotencyService } from './common/idempotency/idempotency.service.js';
import { createLogger, NestPinoLogger } from './common/logging/logger.js';
import { QUEUE_REDIS, QueueConnectionModule, queueOptions } from './common/redis/queue-connection.module.js';
import type { RedisClient } from './common/redis/redis-client.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { ConfigModule } from './config/config.module.js';
import { DeliveriesModule } from './deliveries/deliveries.module.js';
import { SdiModule } from './invoices/sdi/sdi.module.js';
import { F24WorkerModule } from './f24/f24-worker.module.js';

/** The worker process: background work on BullMQ and PostgreSQL (events, deliveries, the SDI), no HTTP. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    configureQueueConsumers(config.queues);
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot({ limits: false }),
        BullModule.forRootAsync({
          imports: [QueueConnectionModule],
          inject: [APP_CONFIG, QUEUE_REDIS],
          useFactory: (appConfig: AppConfig, cluster: RedisClient | null) => queueOptions(appConfig, cluster),
        }),
        BullModule.registerQueue({ name: EVENTS_QUEUE }),
        DeliveriesModule,
        SdiModule,
        F24WorkerModule,
      ],
      providers: [EventRelayService, IdempotencyService, IdempotencySweeper],
    };
  }
}

/** The worker process's application context, logging as JSON at LOG_LEVEL like the API. */
export async function createWorker(config: AppConfig, options: { logDestination?: DestinationStream } = {}): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    logger: new NestPinoLogger(createLogger(config, 'worker', options.logDestination)),
    abortOnError: false,
  });
}
