import type { FieldDef, Pool } from 'pg';
import { QueryFailedError, type EntityMetadata, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { DriverUtils } from 'typeorm/driver/DriverUtils.js';
import { namesStatements, statementName } from '../database/prepared.js';
import { compileReader } from '../database/hydrate.js';
import { encodeCursor, type FilterCondition, type ListQuery, type SortTerm } from './list-query.js';
import type { FieldSpec, ListSpec } from './list-spec.js';

export interface Page<T> {
  data: T[];
  page: { cursor: string | null; size: number };
}

/** Values reach SQL only as bound parameters; each gets a fresh name. */
class Params {
  private next = 0;
  readonly values: Record<string, unknown> = {};

  bind(value: unknown): string {
    const name = `p${this.next++}`;
    this.values[name] = value;
    return name;
  }
}

function escapeLike(value: string): string {
  const escaped = value.replace(/[\\_]/g, (c) => `\\${c}`);
  // Without a wildcard of their own, ilike means "contains".
  return escaped.includes('%') ? escaped : `%${escaped}%`;
}

function condition(filter: FilterCondition, params: Params): string {
  const { column, type } = filter.spec;
  const value = filter.value;
  switch (filter.operator) {
    case 'eq':
      return `${column} = :${params.bind(value)}`;
    case 'neq':
      return `${column} IS DISTINCT FROM :${params.bind(value)}`;
    case 'gt':
      return `${column} > :${params.bind(value)}`;
    case 'gte':
      return `${column} >= :${params.bind(value)}`;
    case 'lt':
      return `${column} < :${params.bind(value)}`;
    case 'lte':
      return `${column} <= :${params.bind(value)}`;
    case 'in':
      return `${column} IN (:...${params.bind(value)})`;
    case 'notIn':
      return `(${column} NOT IN (:...${params.bind(value)}) OR ${column} IS NULL)`;
    case 'ilike':
      return `${column} ILIKE :${params.bind(escapeLike(value as string))}`;
    case 'empty': {
      const isEmpty = type === 'string' ? `(${column} IS NULL OR ${column} = '')` : `${column} IS NULL`;
      return value ? isEmpty : `NOT ${isEmpty}`;
    }
  }
}

interface KeysetTerm {
  column: string;
  direction: 'ASC' | 'DESC';
  nullable: boolean;
  value: unknown;
}

/**
 * The rows strictly after the cursor in the sort order. PostgreSQL sorts NULL as the largest value (ASC NULLS LAST,
 * DESC NULLS FIRST), and the comparison follows the same rule. When every term shares one direction and none is
 * nullable, one row-value comparison lets the index seek straight to the cursor.
 */
function keyset(terms: KeysetTerm[], params: Params): string {
  const uniform = terms.every((t) => t.direction === terms[0].direction && !t.nullable);
  if (uniform) {
    const op = terms[0].direction === 'ASC' ? '>' : '<';
    return `(${terms.map((t) => t.column).join(', ')}) ${op} (${terms.map((t) => `:${params.bind(t.value)}`).join(', ')})`;
  }
  const after = (t: KeysetTerm): string | null => {
    if (t.value === null) return t.direction === 'ASC' ? null : `${t.column} IS NOT NULL`;
    const bound = `:${params.bind(t.value)}`;
    return t.direction === 'ASC' ? (t.nullable ? `(${t.column} > ${bound} OR ${t.column} IS NULL)` : `${t.column} > ${bound}`) : `${t.column} < ${bound}`;
  };
  const equal = (t: KeysetTerm): string => (t.value === null ? `${t.column} IS NULL` : `${t.column} = :${params.bind(t.value)}`);
  const branches: string[] = [];
  terms.forEach((term, i) => {
    const strictly = after(term);
    if (strictly) branches.push([...terms.slice(0, i).map(equal), strictly].join(' AND '));
  });
  return branches.length ? `(${branches.map((b) => `(${b})`).join(' OR ')})` : 'FALSE';
}

const selectedByAlias = new WeakMap<EntityMetadata, Map<string, Array<{ property: string; key: string; column: ColumnMetadata }>>>();

/** The entity's columns with the result keys TypeORM selects them under, worked out once per entity and alias. */
function selectedColumns(qb: SelectQueryBuilder<ObjectLiteral>) {
  const { metadata, name: alias } = qb.expressionMap.mainAlias!;
  let byAlias = selectedByAlias.get(metadata);
  if (!byAlias) selectedByAlias.set(metadata, (byAlias = new Map()));
  let columns = byAlias.get(alias);
  if (!columns) {
    columns = metadata.columns.map((column) => ({
      property: column.propertyName,
      key: DriverUtils.buildAlias(qb.connection.driver, undefined, alias, column.databaseName),
      column,
    }));
    byAlias.set(alias, columns);
  }
  return columns;
}

/** Row readers of page queries, by SQL text: a text's result columns come in one order (compileReader). */
const pageReaders = new Map<string, (row: unknown) => unknown>();

function pageReader(base: SelectQueryBuilder<ObjectLiteral>, text: string, fields: FieldDef[]): (row: unknown) => unknown {
  let read = pageReaders.get(text);
  if (!read) {
    const index = new Map(fields.map((field, i) => [field.name, i]));
    const members = selectedColumns(base).map(({ property, key, column }) => ({ property, source: index.get(key) ?? null, column }));
    read = compileReader(base.connection.driver, members);
    if (pageReaders.size >= 1000) pageReaders.clear();
    pageReaders.set(text, read);
  }
  return read;
}

interface CompiledQuery {
  text: string;
  /** Prepared-statement name, one per distinct SQL text. */
  name: string;
  /** For each positional parameter, the named parameter (and list index) it takes its value from. */
  slots: Array<[string, number | null]>;
}

/**
 * What the SQL TypeORM generates for a builder depends on: its entity and alias, its where conditions (all strings
 * here), joins, order and limit, and the length of each list parameter; never on the other parameter values.
 */
function shapeOf(qb: SelectQueryBuilder<ObjectLiteral>, parameters: Record<string, unknown>): string | null {
  const map = qb.expressionMap;
  if (map.wheres.some((where) => typeof where.condition !== 'string')) return null;
  // A function parameter is SQL inlined by TypeORM, and its text can change from call to call.
  if (Object.values(parameters).some((value) => typeof value === 'function')) return null;
  return JSON.stringify([
    map.mainAlias!.metadata.name,
    map.mainAlias!.name,
    map.wheres.map((where) => [where.type, where.condition]),
    map.joinAttributes.map((join) => [join.direction, join.alias.name, join.condition]),
    map.orderBys,
    map.limit,
    Object.entries(parameters).flatMap(([name, value]) => (Array.isArray(value) ? [[name, value.length]] : [])),
  ]);
}

/** Generates the SQL once per shape, recording where each named parameter lands among the positional ones. */
function compile(qb: SelectQueryBuilder<ObjectLiteral>, parameters: Record<string, unknown>): CompiledQuery {
  const markers = Object.fromEntries(
    Object.entries(parameters).map(([name, value]) => [name, Array.isArray(value) ? value.map((_, i) => `\u0001${name}\u0001${i}`) : `\u0001${name}`]),
  );
  const [text, placed] = qb.connection.driver.escapeQueryWithParameters(qb.getQuery(), markers);
  const slots = (placed as unknown[]).map((marker): [string, number | null] => {
    if (typeof marker !== 'string') throw new Error('a list parameter must be spread with :...name');
    const [, name, index] = marker.split('\u0001');
    return [name, index === undefined ? null : Number(index)];
  });
  return { text, name: statementName(text), slots };
}

/** What a page query adds to its base: joins, conditions (their parameters already bound), keyset, order and limit. */
interface PageClauses {
  joins: string[];
  conditions: string[];
  keyset: string | null;
  order: SortTerm[];
  limit: number;
}

/** Each list's page queries, by the shape of the base and of the clauses (pageShape): their SQL generated once. */
const pageQueries = new WeakMap<ListSpec, Map<string, CompiledQuery>>();

/**
 * The shape of a page query: the base's with every parameter (shapeOf, which counts the items of list parameters) and
 * what the clauses add. Their SQL text names the parameters in the order they were bound, so equal texts make the
 * same query.
 */
function pageShape(baseShape: string, clauses: PageClauses): string {
  return JSON.stringify([
    baseShape,
    clauses.joins,
    clauses.conditions,
    clauses.keyset,
    clauses.order.map((term) => [term.spec.column, term.direction, Boolean(term.spec.nullable)]),
    clauses.limit,
  ]);
}

/** The base query with the clauses applied, as TypeORM runs it. */
function build<E extends ObjectLiteral>(base: SelectQueryBuilder<E>, spec: ListSpec, clauses: PageClauses, values: Record<string, unknown>) {
  const qb = base.clone();
  for (const join of clauses.joins) spec.joins.get(join)!(qb);
  for (const condition of clauses.conditions) qb.andWhere(condition);
  if (clauses.keyset !== null) qb.andWhere(clauses.keyset);
  clauses.order.forEach((term, i) => {
    const nulls = term.direction === 'ASC' ? 'NULLS LAST' : 'NULLS FIRST';
    if (i === 0) qb.orderBy(term.spec.column, term.direction, term.spec.nullable ? nulls : undefined);
    else qb.addOrderBy(term.spec.column, term.direction, term.spec.nullable ? nulls : undefined);
  });
  return qb.setParameters(values).limit(clauses.limit);
}

/**
 * The SQL, statement name and positional values of a page query. The SQL is generated (and the builder built) once per
 * shape of the request; later requests of that shape only place their values.
 */
function prepare<E extends ObjectLiteral>(
  base: SelectQueryBuilder<E>,
  spec: ListSpec,
  clauses: PageClauses,
  values: Record<string, unknown>,
): { name: string; text: string; values: unknown[] } {
  const parameters = { ...base.getParameters(), ...values };
  const baseShape = shapeOf(base, parameters);
  if (baseShape === null) {
    const [text, positional] = build(base, spec, clauses, values).getQueryAndParameters();
    return { name: statementName(text), text, values: positional };
  }
  let queries = pageQueries.get(spec);
  if (!queries) pageQueries.set(spec, (queries = new Map()));
  const shape = pageShape(baseShape, clauses);
  let query = queries.get(shape);
  if (!query) {
    const qb = build(base, spec, clauses, values);
    const all = qb.getParameters();
    query = compile(qb, all);
    // A join that binds parameters of its own: they exist only on the built query, so this shape is never reused.
    if (query.slots.some(([name]) => !(name in parameters))) {
      return { name: query.name, text: query.text, values: query.slots.map(([name, index]) => (index === null ? all[name] : (all[name] as unknown[])[index])) };
    }
    if (queries.size >= 1000) queries.clear();
    queries.set(shape, query);
  }
  const positional = query.slots.map(([name, index]) => (index === null ? parameters[name] : (parameters[name] as unknown[])[index]));
  return { name: query.name, text: query.text, values: positional };
}

/**
 * Runs a page query as a named prepared statement on the pool, so neither TypeORM (which generates the SQL once per
 * shape) nor PostgreSQL (which parses and plans it once per connection) repeats work on every request, and hydrates
 * the rows from the entity's column metadata (the same conversions TypeORM applies, without its general-purpose result
 * transformer). Values stay bound parameters. With named statements off (DB_PREPARED_STATEMENTS) PostgreSQL parses and
 * plans it each time.
 */
async function selectPrepared<E extends ObjectLiteral>(
  base: SelectQueryBuilder<E>,
  spec: ListSpec,
  clauses: PageClauses,
  values: Record<string, unknown>,
  eachOf?: EachOf,
): Promise<E[]> {
  const driver = base.connection.driver as PostgresDriver;
  const inner = prepare(base, spec, clauses, values);
  const prepared = eachOf ? mergePages(base, clauses, inner, eachOf) : inner;
  // Rows as arrays: pg then sets no member by name, and the page's reader makes the entities in one step.
  const statement = { ...(namesStatements(base.connection) ? prepared : { text: prepared.text, values: prepared.values }), rowMode: 'array' as const };
  // Failures become TypeORM's QueryFailedError, as from every other query, so a timeout answers 503 like the rest.
  const result = await (driver.master as Pool).query<unknown[]>(statement).catch((error: Error) => {
    throw new QueryFailedError(statement.text, statement.values, error);
  });
  return result.rows.map(pageReader(base, statement.text, result.fields)) as E[];
}

/**
 * The rows of several keys (a list over several companies): the page query once per key, as a LATERAL subquery whose
 * condition `eachOf.column = each_of.key` lets every key seek its own index range and stop after a page, and the
 * pages merged in the same order and cut to one page. Its cost is bounded by the number of keys times a page, however
 * many rows other keys (other tenants) have; a plain `IN` list would read every row of every key after the cursor to
 * sort them. The keys are one array parameter, so the statement is the same whatever their number.
 */
function mergePages<E extends ObjectLiteral>(
  base: SelectQueryBuilder<E>,
  clauses: PageClauses,
  inner: { text: string; values: unknown[] },
  eachOf: EachOf,
): { name: string; text: string; values: unknown[] } {
  const keys = new Map(selectedColumns(base).map(({ property, key }) => [property, key]));
  const outerOrder = clauses.order.map((term) => {
    const path = term.spec.column;
    const key = keys.get(path.slice(path.indexOf('.') + 1));
    if (!key) throw new Error(`the order term ${path} is not a column of the listed entity`);
    const nulls = term.spec.nullable ? (term.direction === 'ASC' ? ' NULLS LAST' : ' NULLS FIRST') : '';
    return `"page"."${key}" ${term.direction}${nulls}`;
  });
  const text = `SELECT "page".* FROM unnest($${inner.values.length + 1}::${eachOf.type}[]) AS "each_of"("key") CROSS JOIN LATERAL (${inner.text}) AS "page" ORDER BY ${outerOrder.join(', ')} LIMIT ${clauses.limit}`;
  return { name: statementName(text), text, values: [...inner.values, [...eachOf.keys]] };
}

function cursorValue(row: ObjectLiteral, spec: FieldSpec): unknown {
  const value = row[spec.column.slice(spec.column.indexOf('.') + 1)];
  // A cursor holds strings, as a filter value is written: an integer column (a sectional's year) arrives as a number.
  return value instanceof Date ? value.toISOString() : typeof value === 'number' ? String(value) : (value ?? null);
}

/** Rows of several keys of one column (companies), listed as one: see mergePages. */
export interface EachOf {
  /** Query-builder path of the column, `alias.property`. */
  column: string;
  /** Its PostgreSQL type, for the array of keys. */
  type: 'uuid';
  keys: readonly string[];
}

/**
 * Serves one page of a list: the caller's base query (already scoped to the company) plus the request's filters,
 * keyset position and order, fetching one row more than the page to learn whether another page follows. With
 * `cursorAtEnd` (the events list) the last page has a cursor too, after its last row, so that a poller can ask again
 * later for what came next; only an empty page has none. With `eachOf` the rows are those of each of its keys (at
 * least one), merged into one page in the same order (mergePages).
 */
export async function fetchPage<E extends ObjectLiteral>(
  base: SelectQueryBuilder<E>,
  spec: ListSpec,
  query: ListQuery,
  { cursorAtEnd = false, eachOf }: { cursorAtEnd?: boolean; eachOf?: EachOf } = {},
): Promise<{ rows: E[]; cursor: string | null }> {
  const params = new Params();
  const joins = [...new Set(query.filters.map((f) => f.spec.join).filter((j): j is string => Boolean(j)))];
  const conditions = [...(eachOf ? [`${eachOf.column} = "each_of"."key"`] : []), ...query.filters.map((filter) => condition(filter, params))];
  const idSpec: FieldSpec = { column: `${spec.alias}.id`, type: 'uuid' };
  const order: SortTerm[] = [...query.sort, { field: 'id', direction: query.sort.at(-1)?.direction ?? 'ASC', spec: idSpec }];
  let after: string | null = null;
  if (query.after) {
    const values = query.after;
    const terms = order.map((term, i) => ({
      column: term.spec.column,
      direction: term.direction,
      nullable: Boolean(term.spec.nullable),
      value: values[i],
    }));
    after = keyset(terms, params);
  }
  const rows = await selectPrepared(base, spec, { joins, conditions, keyset: after, order, limit: query.pageSize + 1 }, params.values, eachOf);
  if (rows.length === 0 || (rows.length <= query.pageSize && !cursorAtEnd)) return { rows, cursor: null };
  if (rows.length > query.pageSize) rows.length = query.pageSize;
  const last = rows[rows.length - 1];
  return {
    rows,
    cursor: encodeCursor(
      order.map((term) => cursorValue(last, term.spec)),
      query.fingerprint,
    ),
  };
}

export function page<T>(data: T[], cursor: string | null, size: number): Page<T> {
  return { data, page: { cursor, size } };
}
