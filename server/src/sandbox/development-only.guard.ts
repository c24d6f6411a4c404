import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { AuthenticatedRequest } from '../common/auth/auth-context.js';
import { ApiError } from '../common/errors/api-error.js';

/**
 * The sandbox helpers exist in the development environment only: a production key (the production API) finds no such
 * path, as for any path that does not exist. Runs after the ApiKeyGuard, which has admitted the key.
 */
@Injectable()
export class DevelopmentOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
    if (auth?.environment !== 'development') throw ApiError.of('not_found', 'The sandbox helpers exist in the development environment only.');
    return true;
  }
}
