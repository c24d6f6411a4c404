import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { NestFactory } from '@nestjs/core';
import type { DestinationStream } from 'pino';
import type { Clock } from './common/clock/clock.port.js';
import { DatabaseModule } from './common/database/database.module.js';
import { configureQueueConsumers } from './common/events/queue-consumers.js';
import { WorkLoopsModule } from './common/events/work-loops.module.js';
import { IdempotencySweeper } from './common/idempotency/idempotency-sweeper.js';
import { IdempotencyService } from './common/idempotency/idempotency.service.js';
import { createLogger, NestPinoLogger } from './common/logging/logger.js';
import { QUEUE_REDIS, QueueConnectionModule, queueOptions } from './common/redis/queue-connection.module.js';
import type { RedisClient } from './common/redis/redis-client.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { ConfigModule } from './config/config.module.js';
import { DeliveriesModule } from './deliveries/deliveries.module.js';
import { entities } from './entities.js';
import { DeliveryEngine } from './deliveries/delivery-engine.js';
import { DELIVERY_SENDERS, type DeliverySender } from './deliveries/delivery-sender.js';
import { Retention } from './deliveries/retention.js';
import { SdiModule } from './invoices/sdi/sdi.module.js';
import { MailSender } from './mail/mail-sender.js';
import { MailModule } from './mail/mail.module.js';
import { EventFanOut } from './webhooks/event-fan-out.js';
import { WebhookSender } from './webhooks/webhook-sender.js';
import { WebhookSenderModule } from './webhooks/webhook-sender.module.js';
import { F24WorkerModule } from './f24/f24-worker.module.js';
import { RequestLogsRepository } from './request-logs/request-logs.repository.js';

/** What a test changes in the worker: its clock (the manual driver, moved forward instead of waited for). */
export interface WorkerOptions {
  clock?: Clock;
}

/**
 * The worker process: background work on PostgreSQL and BullMQ, no HTTP. Its composition puts the outbound pipeline
 * together: the fan-out of the outbox into deliveries, the delivery engine with one sender per channel (webhook,
 * e-mail: registered here, so `deliveries/` imports neither channel), retention; then the SDI channel and the
 * idempotency sweeper. Every loop runs on the one worker-loop lifecycle, rung by the one LISTEN connection.
 */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, options: WorkerOptions = {}): DynamicModule {
    configureQueueConsumers(config.queues);
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot({ limits: false }),
        // The worker runs documents' and invoices' services without their modules: it registers every entity.
        TypeOrmModule.forFeature(entities),
        WorkLoopsModule.forRoot(options.clock),
        BullModule.forRootAsync({
          imports: [QueueConnectionModule],
          inject: [APP_CONFIG, QUEUE_REDIS],
          useFactory: (appConfig: AppConfig, cluster: RedisClient | null) => queueOptions(appConfig, cluster),
        }),
        DeliveriesModule,
        WebhookSenderModule,
        MailModule,
        SdiModule,
        F24WorkerModule,
      ],
      providers: [
        { provide: DELIVERY_SENDERS, inject: [WebhookSender, MailSender], useFactory: (...senders: DeliverySender[]) => senders },
        DeliveryEngine,
        EventFanOut,
        Retention,
        // Retention deletes the request log's old entries too; the API writes and reads them (request-logs/).
        RequestLogsRepository,
        IdempotencyService,
        IdempotencySweeper,
      ],
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
