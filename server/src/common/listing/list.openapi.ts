import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtension, ApiExtraModels, ApiOkResponse, ApiProperty, ApiQuery, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './list-query.js';
import { OPERATORS_BY_TYPE, type FieldSpec, type ListSpec } from './list-spec.js';

@ApiSchema({ name: 'Page' })
export class PageDto {
  @ApiProperty({
    description: 'Cursor of the next page, to send back as `cursor`; null on the last page. Opaque.',
    nullable: true,
    type: String,
    example: 'eyJrIjpbIjIwMjYtMDMtMDEiLCI3YjQ1Li4uIl0sImYiOiJhYmMifQ',
  })
  cursor: string | null;

  @ApiProperty({ description: 'The page size that was applied.', example: DEFAULT_PAGE_SIZE })
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
      return { type: 'string', format: 'date-time' };
    case 'decimal':
      return { type: 'string', pattern: '^\\d+(\\.\\d+)?$' };
    case 'string':
      return { type: 'string' };
  }
}

function filterSchema(spec: ListSpec): SchemaObject {
  const properties: Record<string, SchemaObject> = {};
  for (const [field, fieldSpec] of spec.filters) {
    for (const op of OPERATORS_BY_TYPE[fieldSpec.type]) {
      const name = op === 'eq' ? field : `${field}__${op}`;
      if (op === 'empty') properties[name] = { type: 'boolean', description: `${field} is null (or empty)` };
      else if (op === 'in' || op === 'notIn') properties[name] = { type: 'string', description: `comma-separated ${field} values` };
      else
        properties[name] = {
          ...valueSchema(fieldSpec),
          description: op === 'ilike' ? `${field} contains (case-insensitive; % is a wildcard)` : `${field} ${op}`,
        };
    }
  }
  return { type: 'object', properties, additionalProperties: false };
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

/** Expansion parameter shared by lists and single reads. */
export function ApiExpand(expansions: readonly string[]): MethodDecorator {
  return ApiQuery({
    name: 'expand',
    required: false,
    description: `Comma-separated members to expand, dots for nesting. Allowed: ${expansions.map((e) => `\`${e}\``).join(', ')}.`,
    schema: { type: 'string', example: expansions.join(',') },
  });
}

/** Documents a list operation: paging, filters, sort and expand parameters, and the `{data, page}` envelope. */
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
    ApiOkResponse({
      description: 'One page of the list.',
      schema: {
        type: 'object',
        required: ['data', 'page'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(item) } },
          page: { $ref: getSchemaPath(PageDto) },
        },
      },
    }),
  ];
  const sorts = [...spec.sorts.keys()];
  if (sorts.length) {
    decorators.push(
      ApiQuery({
        name: 'sort',
        required: false,
        description: `Comma-separated sort fields, \`-\` prefix for descending; ties are broken by id. Allowed: ${sorts
          .map((s) => `\`${s}\``)
          .join(', ')}. Default: \`${listExtension(spec).default_sort}\`.`,
        schema: { type: 'string', example: `-${sorts[0]}` },
      }),
    );
  }
  if (spec.expansions.length) decorators.push(ApiExpand(spec.expansions));
  const filters = [...spec.filters.keys()];
  if (filters.length) {
    decorators.push(
      ApiQuery({
        name: 'filter',
        required: false,
        style: 'deepObject',
        explode: true,
        description: `Filters, as \`filter[FIELD]=VALUE\` or \`filter[FIELD__OP]=VALUE\`. Fields: ${[...spec.filters]
          .map(([f, s]) => `\`${f}\` (${OPERATORS_BY_TYPE[s.type].join(', ')})`)
          .join('; ')}.`,
        schema: filterSchema(spec),
      }),
    );
  }
  return applyDecorators(...decorators);
}
