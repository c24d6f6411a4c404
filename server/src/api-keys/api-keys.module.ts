import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ApiKeysRepository } from '../common/auth/api-keys.repository.js';
import { redisAuthInvalidation } from '../common/auth/auth-invalidation.js';
import { CLOCK, type Clock } from '../common/clock/clock.port.js';
import { REDIS } from '../common/redis/redis.module.js';
import type { RedisClient } from '../common/redis/redis-client.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';

/** Integrators manage their API keys through the API; the operator's CLI shares the service (IntegratorsService). */
@Module({
  controllers: [ApiKeysController],
  providers: [
    {
      provide: ApiKeysService,
      inject: [ApiKeysRepository, APP_CONFIG, REDIS, CLOCK],
      useFactory: (apiKeys: ApiKeysRepository, config: AppConfig, redis: RedisClient, clock: Clock) =>
        new ApiKeysService(apiKeys, config, redisAuthInvalidation(redis, config.redisPrefix), clock),
    },
  ],
})
export class ApiKeysModule {}
