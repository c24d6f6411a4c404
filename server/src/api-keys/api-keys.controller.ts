import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../common/auth/auth-context.js';
import { RequirePermission } from '../common/auth/permissions.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import { apiKeyList } from '../common/auth/api-keys.repository.js';
import { ApiKeyDto, ApiKeyWithSecretDto, CreateApiKeyDto, RollApiKeyDto } from './api-key.dto.js';
import { ApiKeysService, type KeyScope } from './api-keys.service.js';

const scopeOf = (auth: AuthContext): KeyScope => ({
  integratorId: auth.integratorId,
  environment: auth.environment,
  keyId: auth.keyId,
  permissions: auth.permissions,
});

const HANDS_OUT =
  'The calling key needs `api_keys:write` and every permission of the key it makes (403 `insufficient_permission` naming the first it lacks): no key can give more than it has.';

@ApiTags('API keys')
@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @RequirePermission('api_keys:read')
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: 'List API keys',
    description:
      "Lists the integrator's API keys of this environment, oldest first, revoked and expired ones included: names, prefixes, permissions and when each was last used. Secrets are never listed.",
  })
  @ApiList(apiKeyList, ApiKeyDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 'insufficient_permission', ...COMMON_ERRORS)
  list(@CurrentAuth() auth: AuthContext, @Query() query: QueryParams) {
    return this.keys.list(scopeOf(auth), query);
  }

  @Post()
  @RequirePermission('api_keys:write')
  @ApiOperation({
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description: `Creates a key of this environment for the integrator, restricted to \`permissions\`: give each service a key that may do only what it needs. The answer carries the whole key in \`secret\`, shown only this once.\n\n${HANDS_OUT}`,
  })
  @ApiBody({ type: CreateApiKeyDto })
  @ApiCreatedResponse({ type: ApiKeyWithSecretDto, description: 'Created; store `secret` now.' })
  @ApiErrors(400, 'insufficient_permission', 413, 415, 422, ...COMMON_ERRORS)
  create(@CurrentAuth() auth: AuthContext, @Body() body: CreateApiKeyDto) {
    return this.keys.create(scopeOf(auth), body);
  }

  @Get(':id')
  @RequirePermission('api_keys:read')
  @ApiOperation({ operationId: 'getApiKey', summary: 'Get an API key' })
  @ApiIdParam('id', 'API key id.')
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiErrors('insufficient_permission', 404, ...COMMON_ERRORS)
  get(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return this.keys.get(scopeOf(auth), id);
  }

  @Post(':id/roll')
  @RequirePermission('api_keys:write')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rollApiKey',
    summary: 'Roll an API key',
    description: `Replaces a key: the answer is a new key with the same name and permissions, its \`secret\` shown only this once. The rolled key keeps working for \`expires_in\` seconds (at most 7 days; 0 stops it at once), then is refused with 401 like a revoked key. A key may roll itself.\n\n${HANDS_OUT} A revoked or expired key cannot be rolled (422 \`invalid_state\`).`,
  })
  @ApiIdParam('id', 'API key id.')
  @ApiBody({ type: RollApiKeyDto })
  @ApiOkResponse({ type: ApiKeyWithSecretDto, description: 'The new key; store `secret` now.' })
  @ApiErrors(400, 'insufficient_permission', 404, 413, 415, 422, 'invalid_state', ...COMMON_ERRORS)
  roll(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Body() body: RollApiKeyDto) {
    return this.keys.roll(scopeOf(auth), id, body.expires_in);
  }

  @Delete(':id')
  @RequirePermission('api_keys:write')
  @ApiOperation({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description:
      'Revokes a key at once in every API process: from the next request on it is refused with 401. Revoking a revoked key changes nothing. A key may revoke itself (this answer is the last it gets). The calling key needs every permission of the key it revokes (403 `insufficient_permission` otherwise). Webhook endpoints the key registered keep receiving: they belong to the integrator.\n\nA 503 here may come after the key was revoked but before every server was told: repeat the call until it answers 200.',
  })
  @ApiIdParam('id', 'API key id.')
  @ApiOkResponse({ type: ApiKeyDto, description: 'The revoked key.' })
  @ApiErrors('insufficient_permission', 404, ...COMMON_ERRORS)
  revoke(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return this.keys.revokeOwned(scopeOf(auth), id);
  }
}
