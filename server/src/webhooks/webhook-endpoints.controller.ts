import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, type AuthContext } from '../common/auth/auth-context.js';
import { ApiErrors, COMMON_ERRORS } from '../common/errors/api-errors.decorator.js';
import { ApiIdParam } from '../common/http/path-params.js';
import { ApiList } from '../common/listing/list.openapi.js';
import type { QueryParams } from '../common/listing/list-query.js';
import {
  CreateWebhookEndpointDto,
  ReplayEventDto,
  UpdateWebhookEndpointDto,
  WebhookDeliveryDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from './webhook-endpoint.dto.js';
import {
  TEST_EVENTS_PER_WINDOW,
  TEST_WINDOW_MS,
  webhookDeliveryList,
  webhookEndpointList,
  WebhookEndpointsService,
  type EndpointScope,
} from './webhook-endpoints.service.js';
import { TEST_EVENT_TYPE } from './enabled-events.js';
import { RequirePermission } from '../common/auth/permissions.js';

const scopeOf = (auth: AuthContext): Required<EndpointScope> => ({
  integratorId: auth.integratorId,
  environment: auth.environment,
  keyId: auth.keyId,
  permissions: auth.permissions,
});

@ApiTags('Webhooks')
@Controller('webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Get()
  @RequirePermission('webhooks:read')
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: "Lists the API key's integrator's endpoints in this environment, oldest first. Secrets are never listed.",
  })
  @ApiList(webhookEndpointList, WebhookEndpointDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 'insufficient_permission', ...COMMON_ERRORS)
  list(@CurrentAuth() auth: AuthContext, @Query() query: QueryParams) {
    return this.endpoints.list(scopeOf(auth), query);
  }

  @Post()
  @RequirePermission('webhooks:write')
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint',
    description:
      'Registers a URL that receives the events of every company the integrator is granted, signed as Standard Webhooks: those of the types in `enabled_events` (`["*"]`, every type, when left out). The answer carries the signing secret, shown only this once. In production the URL must be HTTPS and reach a public address (checked now and at every connection); development also takes `http://` and loopback.\n\nThe events carry what they are about in full, so the key also needs the read permission of the types chosen (`documents:read` for `document.*`, which `["*"]` includes; 403 `insufficient_permission` naming it otherwise); an unknown type is 422 `unknown_event_type`. The endpoint records the key\'s permissions (`permissions`) and receives only the events they may read.',
  })
  @ApiBody({ type: CreateWebhookEndpointDto })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretDto, description: 'Created; store `secret` now.' })
  @ApiErrors(400, 'unknown_event_type', 'insufficient_permission', 413, 415, 422, ...COMMON_ERRORS)
  create(@CurrentAuth() auth: AuthContext, @Body() body: CreateWebhookEndpointDto) {
    return this.endpoints.create(scopeOf(auth), body);
  }

  @Get(':id')
  @RequirePermission('webhooks:read')
  @ApiOperation({ operationId: 'getWebhookEndpoint', summary: 'Get a webhook endpoint' })
  @ApiIdParam('id', 'Webhook endpoint id.')
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors('insufficient_permission', 404, ...COMMON_ERRORS)
  get(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return this.endpoints.get(scopeOf(auth), id);
  }

  @Patch(':id')
  @RequirePermission('webhooks:write')
  @ApiOperation({
    operationId: 'updateWebhookEndpoint',
    summary: 'Update a webhook endpoint',
    description:
      "Changes the URL, the description, `enabled` or `enabled_events`. `{\"enabled\": true}` re-enables an endpoint that Flusso disabled (after a 410 Gone, or after failing for days) and resumes its pending deliveries at once; events that occurred while it was disabled were not queued for it (replay them).\n\nA new `url` is a new registration: the key also needs the read permission of the endpoint's event types (`documents:read` for `document.*`; 403 `insufficient_permission` otherwise), and the endpoint takes the key's permissions as its `permissions`. New `enabled_events` need the read permission of the types named in the key (403) and, unless `url` changes in the same request, in the endpoint's `permissions` (409 `conflict`); they apply to the events that occur from then on.",
  })
  @ApiIdParam('id', 'Webhook endpoint id.')
  @ApiBody({ type: UpdateWebhookEndpointDto })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors(400, 'unknown_event_type', 'insufficient_permission', 404, 'conflict', 413, 415, 422, ...COMMON_ERRORS)
  update(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Body() body: UpdateWebhookEndpointDto) {
    return this.endpoints.update(scopeOf(auth), id, body);
  }

  @Delete(':id')
  @RequirePermission('webhooks:write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: 'Stops all sending to it and forgets its deliveries.',
  })
  @ApiIdParam('id', 'Webhook endpoint id.')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors('insufficient_permission', 404, ...COMMON_ERRORS)
  async delete(@CurrentAuth() auth: AuthContext, @Param('id') id: string): Promise<void> {
    await this.endpoints.remove(scopeOf(auth), id);
  }

  @Post(':id/rotate-secret')
  @RequirePermission('webhooks:write')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret',
    description:
      'Creates a new signing secret, shown only in this answer. For 24 hours every request carries two signatures in `webhook-signature`, one with each secret, so your receiver can switch to the new one without refusing an event.\n\nThe key also needs the read permission of the events the endpoint receives (`documents:read`), else 403 `insufficient_permission`.',
  })
  @ApiIdParam('id', 'Webhook endpoint id.')
  @ApiOkResponse({ type: WebhookEndpointWithSecretDto, description: 'The endpoint with its new secret.' })
  @ApiErrors('insufficient_permission', 404, ...COMMON_ERRORS)
  rotateSecret(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return this.endpoints.rotateSecret(scopeOf(auth), id);
  }

  @Get(':id/deliveries')
  @RequirePermission('webhooks:read')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'List deliveries to an endpoint',
    description: 'Every event sent (or being sent) to the endpoint, newest first, each with all its attempts and what your endpoint answered.',
  })
  @ApiIdParam('id', 'Webhook endpoint id.')
  @ApiList(webhookDeliveryList, WebhookDeliveryDto)
  @ApiErrors('invalid_query_parameter', 'invalid_cursor', 'insufficient_permission', 404, ...COMMON_ERRORS)
  listDeliveries(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Query() query: QueryParams) {
    return this.endpoints.listDeliveries(scopeOf(auth), id, query);
  }

  @Post(':id/replay')
  @RequirePermission('webhooks:write')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'replayWebhookEvent',
    summary: 'Send an event again',
    description:
      "Queues an event for the endpoint again, with a new schedule of attempts and the same `webhook-id`: after it failed, or to catch up after the endpoint was disabled. A delivery still pending is left as it is. The event must belong to a company the integrator is granted. A replay is an explicit request: the event is sent even if its type is not in the endpoint's `enabled_events`. A test event is not replayed (404): send another.\n\nThe key also needs the read permission of the event (`documents:read` for `document.*`), else 403 `insufficient_permission`; an endpoint whose `permissions` may not read it is answered 409 `conflict`.",
  })
  @ApiIdParam('id', 'Webhook endpoint id.')
  @ApiBody({ type: ReplayEventDto })
  @ApiResponse({ status: 202, type: WebhookDeliveryDto, description: 'Queued; the delivery as it now is.' })
  @ApiErrors(400, 'insufficient_permission', 404, 'conflict', 413, 415, ...COMMON_ERRORS)
  replay(@CurrentAuth() auth: AuthContext, @Param('id') id: string, @Body() body: ReplayEventDto) {
    return this.endpoints.replay(scopeOf(auth), id, body.event_id);
  }

  @Post(':id/test')
  @RequirePermission('webhooks:write')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'testWebhookEndpoint',
    summary: 'Send a test event',
    description: `Sends the endpoint a \`${TEST_EVENT_TYPE}\` event (WebhookTestEvent), signed with its secret as every event is, through the same deliveries: it is retried on failure and shows, with its attempts, in listWebhookDeliveries. Only this endpoint receives it, whatever its \`enabled_events\`; it carries no company's data (\`company_id\` is null), so the key needs no read permission. A disabled endpoint is sent nothing: 409 \`conflict\` (enable it first). At most ${TEST_EVENTS_PER_WINDOW} test events per endpoint per ${TEST_WINDOW_MS / 1000} seconds (429 \`too_many_requests\` with \`retry-after\`).`,
  })
  @ApiIdParam('id', 'Webhook endpoint id.')
  @ApiResponse({ status: 202, type: WebhookDeliveryDto, description: 'Queued; the delivery as it now is (follow it with listWebhookDeliveries).' })
  @ApiErrors('insufficient_permission', 404, 'conflict', ...COMMON_ERRORS)
  test(@CurrentAuth() auth: AuthContext, @Param('id') id: string) {
    return this.endpoints.test(scopeOf(auth), id);
  }
}
