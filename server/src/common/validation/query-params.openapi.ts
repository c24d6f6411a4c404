import { getSchemaPath, type OpenAPIObject, type OperationObject, type ParameterObject, type ResponseObject } from '@nestjs/swagger';
import { errorItem } from '../errors/api-error.js';
import { addErrorExample, errorExample } from '../errors/api-errors.decorator.js';
import { IntegrationErrorDto } from '../errors/error.dto.js';

const WHEN = 'a query parameter is sent: this operation takes none';

/**
 * Declares what QueryParamsGuard answers: on every operation that documents no query parameter, a 400
 * `invalid_query_parameter` for any query parameter (named in its description when the operation already answers 400).
 */
export function documentQueryRefusals(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as OperationObject[]) {
      if (!operation?.responses || (operation.parameters ?? []).some((parameter) => (parameter as ParameterObject).in === 'query')) continue;
      const example = errorExample('invalid_query_parameter', errorItem('invalid_query_parameter', 'Unknown query parameter colour.', '/query/colour'));
      const existing = operation.responses['400'] as ResponseObject | undefined;
      if (existing?.description.includes('`invalid_query_parameter`')) continue;
      if (existing) {
        existing.description = `${existing.description} Code \`invalid_query_parameter\` when ${WHEN}.`;
        addErrorExample(existing, 'invalid_query_parameter', example);
        continue;
      }
      const badRequest = {
        description: `Bad request: ${WHEN}. Code \`invalid_query_parameter\`.`,
        content: { 'application/json': { schema: { $ref: getSchemaPath(IntegrationErrorDto) }, example } },
      };
      // In status order, as the reference lists them.
      operation.responses = Object.fromEntries(Object.entries({ ...operation.responses, 400: badRequest }).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
}
