import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { CompanyShares } from '../database/company-shares.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { AuthService } from './auth.service.js';
import { QueryParamsGuard } from '../validation/query-params.guard.js';
import { ApiKeyGuard, CompanyAccessGuard } from './guards.js';
import { RateLimiterService } from './rate-limiter.service.js';
import { FailedAuthThrottle } from './failed-auth-throttle.js';
import { windowCounterProvider } from '../window-counter/window-counter.factory.js';
import { CLOCK, type Clock } from '../clock/clock.port.js';
import { KeyUsage } from './key-usage.js';

/**
 * API-key authentication, rate limiting and company access, applied to every route in that order; then the refusal of
 * query parameters the route does not take, so that 401 and 403 come first. Its clock (a rolled key's end, when keys
 * were last used) is the system's unless a test passes one it moves.
 */
@Module({})
export class AuthModule {
  static forRoot(clock: Clock): DynamicModule {
    return {
      module: AuthModule,
      global: true,
      providers: [
        { provide: CLOCK, useValue: clock },
        AuthService,
        KeyUsage,
        ApiKeysRepository,
        RateLimiterService,
        FailedAuthThrottle,
        windowCounterProvider,
        {
          provide: CompanyShares,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => new CompanyShares(config.database.companyConnections, config.database.companyWaitMs),
        },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: CompanyAccessGuard },
        { provide: APP_GUARD, useClass: QueryParamsGuard },
      ],
      exports: [AuthService, ApiKeysRepository, KeyUsage, CLOCK],
    };
  }
}
