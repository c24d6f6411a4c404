import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * What a resource declares about its list endpoint: which fields can be filtered and sorted and which members can be
 * expanded. The parser, the SQL builder and the OpenAPI decorators all read this one declaration. Its tables are
 * `Map`s: a client's word (`sort=constructor`, `filter[__proto__]`) must find only the names declared here, never a
 * property every object inherits.
 */
export type FieldType = 'uuid' | 'string' | 'enum' | 'date' | 'datetime' | 'decimal' | 'integer' | 'bigint';

export const FILTER_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'notIn', 'empty', 'ilike'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface FieldSpec {
  /** Query-builder path of the column, `alias.property`. */
  column: string;
  type: FieldType;
  /** Allowed values of an enum field, as the API writes them. */
  values?: readonly string[];
  /** The stored value of an allowed enum value, when the column stores another spelling (api-enum.ts). */
  toStored?: (value: string) => string;
  nullable?: boolean;
  /** Name of a join (declared in `joins`) the field needs. */
  join?: string;
}

export type SortDirection = 'ASC' | 'DESC';

export interface ListSpec {
  /** Alias of the listed entity in the query builder. */
  alias: string;
  filters: ReadonlyMap<string, FieldSpec>;
  sorts: ReadonlyMap<string, FieldSpec>;
  /** Order when the request names none, e.g. `-created_at`. May use fields that are not publicly sortable. */
  defaultSort: Array<{ field: string; direction: SortDirection; spec: FieldSpec }>;
  /** Allowed expand paths, nested ones with dots (`reconciliations.flow`). */
  expansions: readonly string[];
  /** Joins that some filter fields need, added only when such a filter is used. */
  joins: ReadonlyMap<string, JoinFn>;
}

export type JoinFn = (qb: SelectQueryBuilder<ObjectLiteral>) => void;

/** Operators that make sense for each kind of field. */
export const OPERATORS_BY_TYPE: Record<FieldType, readonly FilterOperator[]> = {
  uuid: ['eq', 'neq', 'in', 'notIn', 'empty'],
  enum: ['eq', 'neq', 'in', 'notIn', 'empty'],
  string: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'notIn', 'empty', 'ilike'],
  date: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'notIn', 'empty'],
  datetime: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'notIn', 'empty'],
  decimal: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'notIn', 'empty'],
  integer: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'notIn', 'empty'],
  bigint: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'notIn', 'empty'],
};

export function defineList(spec: {
  alias: string;
  filters?: Record<string, FieldSpec>;
  sorts?: Record<string, FieldSpec>;
  defaultSort: string;
  internalFields?: Record<string, FieldSpec>;
  expansions?: readonly string[];
  joins?: Record<string, JoinFn>;
}): ListSpec {
  const sorts = new Map(Object.entries(spec.sorts ?? {}));
  const known = new Map([...Object.entries(spec.internalFields ?? {}), ...sorts]);
  const defaultSort = spec.defaultSort.split(',').map((term) => {
    const descending = term.startsWith('-');
    const field = descending ? term.slice(1) : term;
    const fieldSpec = known.get(field);
    if (!fieldSpec) throw new Error(`defaultSort field ${field} is not declared`);
    return { field, direction: (descending ? 'DESC' : 'ASC') as SortDirection, spec: fieldSpec };
  });
  const joins = new Map(Object.entries(spec.joins ?? {}));
  for (const [field, fieldSpec] of Object.entries(spec.filters ?? {})) {
    if (fieldSpec.join && !joins.has(fieldSpec.join)) throw new Error(`filter ${field} needs the undeclared join ${fieldSpec.join}`);
  }
  return {
    alias: spec.alias,
    filters: new Map(Object.entries(spec.filters ?? {})),
    sorts,
    defaultSort,
    expansions: spec.expansions ?? [],
    joins,
  };
}
