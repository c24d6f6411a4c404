import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { errorItem } from './api-error.js';
import { codeForStatus, type ErrorCode } from './error-codes.js';
import { IntegrationErrorDto } from './error.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: a required parameter is missing, or a parameter or member is malformed.',
  401: 'Unauthorized: no valid API key.',
  402: 'Request failed: the parameters were valid but the request failed.',
  403: 'Forbidden: the API key lacks permission for this company or resource.',
  404: 'Not found.',
  413: 'Payload too large.',
  415: 'Unsupported media type.',
  422: 'Unprocessable entity: well-formed, but a value breaks a rule.',
  429: 'Too many requests: the rate limit of the API key is exhausted; retry after `retry-after` seconds.',
  500: 'Internal server error.',
  502: 'Bad gateway.',
  503: 'Service unavailable.',
  504: 'Gateway timeout.',
};

const EXAMPLES: Partial<Record<ErrorCode, [string, string?]>> = {
  bad_request: ['amount is required', '/amount'],
  unauthorized: ['Send an API key as a bearer token in the Authorization header.'],
  forbidden: ['This API key has no access to this resource.'],
  not_found: ['Document was not found.'],
  unprocessable_entity: ['currency must be an ISO 4217 currency code such as EUR', '/amount/currency'],
  too_many_requests: ['Rate limit of 600 requests per 60 seconds exceeded; retry in 12 seconds.'],
  internal_server_error: ['An unexpected error occurred; it has been logged.'],
  request_failed: ['The request could not be completed.'],
};

/** Documents the error answers of an operation, each with the integration error schema and an example. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) => {
      const code = codeForStatus(status);
      const [detail, pointer] = EXAMPLES[code] ?? [DESCRIPTIONS[status]];
      return ApiResponse({
        status,
        description: DESCRIPTIONS[status],
        type: IntegrationErrorDto,
        example: { errors: [errorItem(code, detail, pointer)] },
      });
    }),
  );
}

/** The errors every authenticated call can answer with, besides its own. */
export const COMMON_ERRORS = [401, 402, 429, 500, 502, 503, 504] as const;
