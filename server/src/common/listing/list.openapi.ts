import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtension, ApiExtraModels, ApiOkResponse, ApiProperty, ApiQuery, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { DATETIME, DECIMAL, DEFAULT_PAGE_SIZE, BIGINT, INTEGER, MAX_LIST_VALUES, MAX_PAGE_SIZE, MAX_VALUE_LENGTH } from './list-query.js';
import { OPERATORS_BY_TYPE, type FieldSpec, type FilterOperator, type ListSpec } from './list-spec.js';

@ApiSchema({ name: 'Page' })
export class PageDto {
  @ApiProperty({
    description: 'Cursor of the next page, to send back as `cursor`; null on the last page. Opaque.',
    nullable: true,
    type: String,
    example: 'eyJrIjpbIjIwMjYtMDMtMDEiLCI3YjQ1Li4uIl0sImYiOiJhYmMifQ',
  })
  cursor: string | null;

  @ApiProperty({ type: 'integer', description: 'The page size that was applied.', example: DEFAULT_PAGE_SIZE })
  size: number;
}

function valueSchema(spec: FieldSpec): SchemaObject {
  switch (spec.type) {
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'enum':
      return { type: 'string', enum: [...(spec.values ?? [])] };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', pattern: DATETIME.source };
    case 'decimal':
      return { type: 'string', pattern: DECIMAL.source };
    case 'integer':
      return { type: 'string', pattern: INTEGER.source };
    case 'bigint':
      return { type: 'string', pattern: BIGINT.source };
    case 'string':
      return { type: 'string', minLength: 1, maxLength: MAX_VALUE_LENGTH };
  }
}

const OPERATOR_MEANINGS: Record<FilterOperator, string> = {
  eq: 'equals the value',
  neq: 'differs from the value',
  gt: 'is greater (later) than the value',
  gte: 'is the value or greater (later)',
  lt: 'is less (earlier) than the value',
  lte: 'is the value or less (earlier)',
  in: 'is one of the values (comma-separated)',
  notIn: 'is none of the values (comma-separated)',
  empty: 'is null (or empty); with `false`, only those where it is set',
  ilike: 'contains the value, ignoring case (`%` is a wildcard)',
};

/**
 * One query parameter per filter field and operator, `filter[FIELD]` or `filter[FIELD__OP]`, typed by the field: the
 * parser reads each once, and the lists of `in`/`notIn` comma-separated (`style: form`, `explode: false`).
 */
function filterParameters(spec: ListSpec): MethodDecorator[] {
  return [...spec.filters].flatMap(([field, fieldSpec]) =>
    OPERATORS_BY_TYPE[fieldSpec.type].map((op) => {
      const name = op === 'eq' ? `filter[${field}]` : `filter[${field}__${op}]`;
      const description = `Only items whose \`${field}\` ${OPERATOR_MEANINGS[op]}.`;
      if (op === 'in' || op === 'notIn') {
        return ApiQuery({
          name,
          required: false,
          description,
          style: 'form',
          explode: false,
          // Each value is trimmed, and a blank one refused.
          schema: {
            type: 'array',
            items: { ...valueSchema(fieldSpec), ...(fieldSpec.type === 'string' && { pattern: '\\S' }) },
            minItems: 1,
            maxItems: MAX_LIST_VALUES,
          },
        });
      }
      return ApiQuery({ name, required: false, description, schema: op === 'empty' ? { type: 'boolean' } : valueSchema(fieldSpec) });
    }),
  );
}

/** The list vocabulary of an operation, machine-readable, for the portal and for client generators. */
export function listExtension(spec: ListSpec) {
  return {
    filters: Object.fromEntries([...spec.filters].map(([f, s]) => [f, [...OPERATORS_BY_TYPE[s.type]]])),
    sorts: [...spec.sorts.keys()],
    expansions: [...spec.expansions],
    default_sort: spec.defaultSort.map((s) => (s.direction === 'DESC' ? '-' : '') + s.field).join(','),
  };
}

/** Expansion parameter shared by lists and single reads: a list of the allowed paths, sent comma-separated. */
export function ApiExpand(expansions: readonly string[]): MethodDecorator {
  return ApiQuery({
    name: 'expand',
    required: false,
    description: 'Members to expand, comma-separated; dots for nesting (a nested path expands its parents too).',
    style: 'form',
    explode: false,
    schema: { type: 'array', items: { type: 'string', enum: [...expansions] }, minItems: 1, uniqueItems: true, example: [...expansions] },
  });
}

const LIST_DTOS = new Map<Type, Type>();

/** `{data: [item], page: Page}` as a named schema (`DocumentList` for `Document`), so generated types have its name. */
function listDto(item: Type): Type {
  const known = LIST_DTOS.get(item);
  if (known) return known;
  class ListDto {
    data: unknown[];
    page: PageDto;
  }
  ApiProperty({ type: item, isArray: true, description: 'The items of this page, in the requested order.' })(ListDto.prototype, 'data');
  ApiProperty({ type: PageDto })(ListDto.prototype, 'page');
  ApiSchema({ name: `${getSchemaPath(item).split('/').pop()}List` })(ListDto);
  LIST_DTOS.set(item, ListDto);
  return ListDto;
}

/** Documents a list operation: paging, filters, sort and expand parameters, and the named `{data, page}` envelope. */
export function ApiList(spec: ListSpec, item: Type): MethodDecorator {
  const decorators: MethodDecorator[] = [
    ApiExtraModels(item, PageDto),
    ApiQuery({
      name: 'page_size',
      required: false,
      description: `Items per page, 1 to ${MAX_PAGE_SIZE}.`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    }),
    ApiQuery({
      name: 'cursor',
      required: false,
      description: 'The `page.cursor` of the previous answer, to get the next page. Keep filters and sort unchanged while paging.',
      schema: { type: 'string' },
    }),
    ApiExtension('x-flusso-list', listExtension(spec)),
    ApiOkResponse({ description: 'One page of the list.', type: listDto(item) }),
  ];
  const sorts = [...spec.sorts.keys()];
  if (sorts.length) {
    decorators.push(
      ApiQuery({
        name: 'sort',
        required: false,
        description: `Sort fields, comma-separated, each at most once; \`-\` before a field for descending. Ties are broken by id. Default: \`${
          listExtension(spec).default_sort
        }\`.`,
        style: 'form',
        explode: false,
        schema: {
          type: 'array',
          items: { type: 'string', enum: sorts.flatMap((s) => [s, `-${s}`]) },
          minItems: 1,
          uniqueItems: true,
          example: [`-${sorts[0]}`],
        },
      }),
    );
  }
  if (spec.expansions.length) decorators.push(ApiExpand(spec.expansions));
  decorators.push(...filterParameters(spec));
  return applyDecorators(...decorators);
}
