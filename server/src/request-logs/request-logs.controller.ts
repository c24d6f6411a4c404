import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../common/auth/auth-context.js';
import { RequirePermission } from '../common/auth/permissions.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { RequestLogDto } from './request-log.dto.js';
import { requestLogList, type LogScope } from './request-logs.repository.js';
import { RequestLogsService } from './request-logs.service.js';

const scopeOf = (auth: AuthContext): LogScope => ({ integratorId: auth.integratorId, environment: auth.environment });

@ApiTags('Request logs')
@Controller('request-logs')
export class RequestLogsController {
  constructor(private readonly logs: RequestLogsService) {}

  @Get()
  @RequirePermission('request_logs:read')
  @ApiOperation({
    operationId: 'listRequestLogs',
    summary: 'List failed requests',
    description:
      "The integrator's failed requests (4xx and 5xx) of the last 7 days in this environment, sent with any of its keys, newest first; successes are not logged. Find one by the X-Request-Id of its answer with `filter[request_id]`. Each entry names the route, status, error codes, key prefix and company, never the request's headers, body or query string. A request that failed before a key was recognised (401: no key, an unknown or a revoked one) belongs to no integrator and is not here. Entries appear within about a second.",
  })
  @ApiList(requestLogList, RequestLogDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 'insufficient_permission', ...COMMON_ERRORS)
  list(@CurrentAuth() auth: AuthContext, @Query() query: QueryParams) {
    return this.logs.list(scopeOf(auth), query);
  }

  @Get(':id')
  @RequirePermission('request_logs:read')
  @ApiOperation({ operationId: 'getRequestLog', summary: 'Get a failed request', description: 'One entry of the request log, while it is kept (7 days).' })
  @ApiIdParam('id', 'Request log entry id.')
  @ApiOkResponse({ type: RequestLogDto })
  @ApiErrors('insufficient_permission', 404, ...COMMON_ERRORS)
  get(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return this.logs.get(scopeOf(auth), id);
  }
}
