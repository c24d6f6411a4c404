import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthService } from './auth.service.js';
import { ApiKeyGuard, CompanyAccessGuard } from './guards.js';
import { RateLimiterService } from './rate-limiter.service.js';

/** API-key authentication, rate limiting and company access, applied to every route in that order. */
@Global()
@Module({
  providers: [AuthService, RateLimiterService, { provide: APP_GUARD, useClass: ApiKeyGuard }, { provide: APP_GUARD, useClass: CompanyAccessGuard }],
  exports: [AuthService],
})
export class AuthModule {}
