import { applyDecorators } from '@nestjs/common';
import { ApiParam, getSchemaPath, type OpenAPIObject, type OperationObject } from '@nestjs/swagger';
import { errorItem } from '../errors/api-error.js';
import { errorExample } from '../errors/api-errors.decorator.js';
import { IntegrationErrorDto } from '../errors/error.dto.js';
import { SEGMENT_TOO_LONG } from '../errors/error-response.js';

/** The longest path segment the router takes; a longer one is answered 404 before any route runs. */
export const MAX_PATH_SEGMENT = 200;

/** The company every company-scoped route acts in. */
export const ApiCompanyParam = () =>
  ApiParam({ name: 'company_id', description: 'Company id, one of those listed by GET /companies.', schema: { type: 'string', format: 'uuid' } });

export const ApiIdParam = (name: string, description: string) => applyDecorators(ApiParam({ name, description, schema: { type: 'string', format: 'uuid' } }));

/**
 * Every operation with a path parameter can answer 404 for a segment over MAX_PATH_SEGMENT characters, lists and
 * creations included: declares it where the operation declares no 404 of its own.
 */
export function documentLongPathSegments(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.includes('{')) continue;
    for (const operation of Object.values(item) as OperationObject[]) {
      if (!operation?.responses || operation.responses['404']) continue;
      const notFound = {
        description: `Not found: a path segment is longer than ${MAX_PATH_SEGMENT} characters, so names nothing.`,
        content: {
          'application/json': {
            schema: { $ref: getSchemaPath(IntegrationErrorDto) },
            example: errorExample('not_found', errorItem('not_found', SEGMENT_TOO_LONG)),
          },
        },
      };
      // In status order, as the reference lists them.
      operation.responses = Object.fromEntries(Object.entries({ ...operation.responses, 404: notFound }).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
}
