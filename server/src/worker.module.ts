import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from './common/database/database.module.js';
import { EventRelayService, EVENTS_QUEUE } from './common/events/event-relay.service.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { ConfigModule } from './config/config.module.js';

/** The worker process: background work on BullMQ, no HTTP. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(),
        BullModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (appConfig: AppConfig) => ({ connection: { url: appConfig.redisUrl }, prefix: 'flusso' }),
        }),
        BullModule.registerQueue({ name: EVENTS_QUEUE }),
      ],
      providers: [EventRelayService],
    };
  }
}
