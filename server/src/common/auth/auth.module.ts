import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { CompanyShares } from '../database/company-shares.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { AuthService } from './auth.service.js';
import { QueryParamsGuard } from '../validation/query-params.guard.js';
import { ApiKeyGuard, CompanyAccessGuard } from './guards.js';
import { RateLimiterService } from './rate-limiter.service.js';

/**
 * API-key authentication, rate limiting and company access, applied to every route in that order; then the refusal of
 * query parameters the route does not take, so that 401 and 403 come first.
 */
@Global()
@Module({
  providers: [
    AuthService,
    ApiKeysRepository,
    RateLimiterService,
    {
      provide: CompanyShares,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new CompanyShares(config.database.companyConnections, config.database.companyWaitMs),
    },
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: CompanyAccessGuard },
    { provide: APP_GUARD, useClass: QueryParamsGuard },
  ],
  exports: [AuthService],
})
export class AuthModule {}
