import { getSchemaPath, type OpenAPIObject, type OperationObject, type ResponseObject } from '@nestjs/swagger';
import { errorItem } from '../errors/api-error.js';
import { addErrorExample, errorExample } from '../errors/api-errors.decorator.js';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';
import { IntegrationErrorDto } from '../errors/error.dto.js';
import { IDEMPOTENT_REPLAYED_HEADER, KEY_LIFETIME_HOURS } from './idempotency-key.js';

const PARAMETER = 'IdempotencyKey';
const REPLAYED = 'IdempotentReplayed';

/** The idempotency errors, each with the detail of its example. */
const ERRORS: Array<[ErrorCode, string, string]> = [
  [
    'invalid_idempotency_key',
    'Idempotency-Key must be one header of 1 to 255 printable ASCII characters without spaces, such as a UUID.',
    'the `Idempotency-Key` header is malformed',
  ],
  [
    'idempotency_key_in_progress',
    'A request with this Idempotency-Key is still running; retry in a moment to get its answer.',
    'a request with the same `Idempotency-Key` is still running; retry after `retry-after` seconds to get its answer',
  ],
  [
    'idempotency_key_reused',
    `This Idempotency-Key was used in the last ${KEY_LIFETIME_HOURS} hours for a request with another method, path or body; use a new key for a new request.`,
    `the \`Idempotency-Key\` was used in the last ${KEY_LIFETIME_HOURS} hours for another request (method, path or body)`,
  ],
];

/**
 * Declares `Idempotency-Key` on every POST of the document, in one place as the interceptor applies it: the header
 * parameter, the `idempotent-replayed` header of a replayed answer, and the idempotency errors (a status the operation
 * does not answer yet gets the code's own example; one it already answers names the code in its description).
 */
export function documentIdempotency(document: OpenAPIObject): void {
  document.components ??= {};
  document.components.parameters = {
    ...document.components.parameters,
    [PARAMETER]: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        `Makes the request safe to retry: a retry with the same key and the same body gets the first answer (status and body, with \`${IDEMPOTENT_REPLAYED_HEADER}: true\`) and creates nothing twice. ` +
        `Keys are kept ${KEY_LIFETIME_HOURS} hours per integrator, environment and company. 1 to 255 printable ASCII characters without spaces; a UUID v4 is the usual choice.`,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
      example: '5a0c3c8e-2f4b-4c7e-9d1a-6b8e2f0c4d13',
    },
  };
  document.components.headers = {
    ...document.components.headers,
    [REPLAYED]: {
      description: 'Present (`true`) when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
      required: false,
      schema: { type: 'string', enum: ['true'] },
    },
  };
  for (const item of Object.values(document.paths)) {
    const operation = item.post as OperationObject | undefined;
    if (!operation) continue;
    operation.parameters = [...(operation.parameters ?? []), { $ref: `#/components/parameters/${PARAMETER}` }];
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!status.startsWith('2')) continue;
      const success = response as ResponseObject;
      success.headers = { ...success.headers, [IDEMPOTENT_REPLAYED_HEADER]: { $ref: `#/components/headers/${REPLAYED}` } };
    }
    for (const [code, detail, when] of ERRORS) {
      const status = String(ERROR_CODES[code].status);
      const example = errorExample(code, errorItem(code, detail, '/header/Idempotency-Key'));
      const existing = operation.responses[status] as ResponseObject | undefined;
      if (existing) {
        existing.description = `${existing.description} Code \`${code}\` when ${when}.`;
        addErrorExample(existing, code, example);
        continue;
      }
      operation.responses[status] = {
        description: `${ERROR_CODES[code].title}: ${when}. Code \`${code}\`.`,
        content: { 'application/json': { schema: { $ref: getSchemaPath(IntegrationErrorDto) }, example } },
      };
    }
    const conflict = operation.responses[String(ERROR_CODES.idempotency_key_in_progress.status)] as ResponseObject;
    conflict.headers = {
      ...conflict.headers,
      'retry-after': {
        description: 'With `idempotency_key_in_progress`: seconds to wait before retrying.',
        required: false,
        schema: { type: 'integer', minimum: 1 },
      },
    };
  }
}
