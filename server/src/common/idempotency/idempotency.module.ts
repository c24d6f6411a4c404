import { Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyService } from './idempotency.service.js';

/**
 * `Idempotency-Key` on every POST route of the API: one interceptor, nothing to add per route. createApi binds it to the
 * POST routes (interceptRoutes), not globally, so that reads don't go through an interceptor chain for nothing.
 */
@Global()
@Module({
  providers: [IdempotencyService, IdempotencyInterceptor],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
