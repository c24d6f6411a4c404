import { createHash } from 'node:crypto';
import { ApiError } from '../errors/api-error.js';
import { isCalendarDate } from '../validation/calendar-date.js';
import { isUuid } from '../validation/uuid.js';
import { FILTER_OPERATORS, OPERATORS_BY_TYPE, type FieldSpec, type FilterOperator, type ListSpec, type SortDirection } from './list-spec.js';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
export const MAX_LIST_VALUES = 100;
export const MAX_VALUE_LENGTH = 500;

export type QueryParams = Record<string, unknown>;

export interface FilterCondition {
  field: string;
  spec: FieldSpec;
  operator: FilterOperator;
  /** A parsed value, a list for in/notIn, a boolean for empty. */
  value: string | string[] | boolean;
}

export interface SortTerm {
  field: string;
  direction: SortDirection;
  spec: FieldSpec;
}

export interface ListQuery {
  pageSize: number;
  /** Keyset values of the last row of the previous page, in sort order, id last. */
  after: unknown[] | null;
  filters: FilterCondition[];
  sort: SortTerm[];
  expand: Set<string>;
  /** Binds a cursor to the filters and sort it was made with. */
  fingerprint: string;
}

/** A datetime filter value: an ISO 8601 date-time, or a date (its midnight UTC). */
export const DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
export const DECIMAL = /^\d{1,15}(\.\d{1,6})?$/;
/** An integer filter value: digits only, few enough for a PostgreSQL integer column (a year, a count). */
export const INTEGER = /^\d{1,9}$/;
/** A bigint value (a position in a cursor): digits only, always within a PostgreSQL bigint. */
export const BIGINT = /^\d{1,18}$/;

/** One query parameter as a single string; repeating a parameter is ambiguous and refused. */
export function single(query: QueryParams, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw ApiError.badQuery(name, `The parameter ${name} must be given once.`);
  return value;
}

function parseValue(raw: string, spec: FieldSpec, param: string, field: string): string {
  if (raw.length > MAX_VALUE_LENGTH) throw ApiError.badQuery(param, `The value of ${param} is too long.`);
  // PostgreSQL text cannot hold NUL: bound as a parameter it fails the query (a 500) instead of matching nothing.
  if (raw.includes('\u0000')) throw ApiError.badQuery(param, `The value of ${param} contains a NUL character.`);
  switch (spec.type) {
    case 'uuid':
      if (!isUuid(raw)) throw ApiError.badQuery(param, `${field} must be a uuid, got "${raw}".`);
      return raw.toLowerCase();
    case 'enum':
      if (!spec.values?.includes(raw)) {
        throw ApiError.badQuery(param, `${field} must be one of ${spec.values?.join(', ')}, got "${raw}".`);
      }
      return spec.toStored ? spec.toStored(raw) : raw;
    case 'date':
      if (!isCalendarDate(raw)) throw ApiError.badQuery(param, `${field} must be a date (YYYY-MM-DD), got "${raw}".`);
      return raw;
    case 'datetime':
      if (!DATETIME.test(raw) || !isCalendarDate(raw.slice(0, 10)) || Number.isNaN(Date.parse(raw.length === 10 ? `${raw}T00:00:00Z` : raw))) {
        throw ApiError.badQuery(param, `${field} must be an ISO 8601 date-time (e.g. 2026-01-31T09:30:00Z), got "${raw}".`);
      }
      return new Date(raw.length === 10 ? `${raw}T00:00:00Z` : raw).toISOString();
    case 'decimal':
      if (!DECIMAL.test(raw)) throw ApiError.badQuery(param, `${field} must be a non-negative decimal such as 120.50, got "${raw}".`);
      return raw;
    case 'integer':
      if (!INTEGER.test(raw)) throw ApiError.badQuery(param, `${field} must be a whole number such as 2026, got "${raw}".`);
      return raw;
    case 'bigint':
      if (!BIGINT.test(raw)) throw ApiError.badQuery(param, `${field} must be a whole number, got "${raw}".`);
      return raw;
    case 'string':
      return raw;
  }
}

function parseFilters(query: QueryParams, spec: ListSpec): FilterCondition[] {
  const conditions: FilterCondition[] = [];
  for (const param of Object.keys(query)) {
    if (!param.startsWith('filter')) continue;
    const match = /^filter\[([a-z_]+?)(?:__([a-zA-Z]+))?\]$/.exec(param);
    if (!match) {
      throw ApiError.badQuery(param, `Filters are written filter[FIELD]=VALUE or filter[FIELD__OPERATOR]=VALUE, got "${param}".`);
    }
    const [, field, operatorName] = match;
    const fieldSpec = spec.filters.get(field);
    const allowedFields = [...spec.filters.keys()];
    if (!fieldSpec) {
      throw ApiError.badQuery(
        param,
        allowedFields.length ? `Filtering by ${field} is not supported here; allowed fields: ${allowedFields.join(', ')}.` : 'This list cannot be filtered.',
      );
    }
    const operator = (operatorName ?? 'eq') as FilterOperator;
    const allowedOperators = OPERATORS_BY_TYPE[fieldSpec.type];
    if (!FILTER_OPERATORS.includes(operator) || !allowedOperators.includes(operator)) {
      throw ApiError.badQuery(param, `The operator ${operatorName} is not supported for ${field}; use one of ${allowedOperators.join(', ')}.`);
    }
    const raw = single(query, param) ?? '';
    let value: FilterCondition['value'];
    if (operator === 'empty') {
      if (raw !== 'true' && raw !== 'false') throw ApiError.badQuery(param, `${param} must be true or false.`);
      value = raw === 'true';
    } else if (operator === 'in' || operator === 'notIn') {
      const items = raw.split(',').map((s) => s.trim());
      if (raw === '' || items.some((s) => s === '')) throw ApiError.badQuery(param, `${param} must be a comma-separated list of values.`);
      if (items.length > MAX_LIST_VALUES) throw ApiError.badQuery(param, `${param} accepts at most ${MAX_LIST_VALUES} values.`);
      value = items.map((item) => parseValue(item, fieldSpec, param, field));
    } else {
      if (raw === '') throw ApiError.badQuery(param, `${param} needs a value.`);
      value = parseValue(raw, fieldSpec, param, field);
    }
    conditions.push({ field, spec: fieldSpec, operator, value });
  }
  return conditions.sort((a, b) => (a.field + a.operator).localeCompare(b.field + b.operator));
}

function parseSort(query: QueryParams, spec: ListSpec): SortTerm[] {
  const raw = single(query, 'sort');
  if (raw === undefined) return spec.defaultSort;
  const allowed = [...spec.sorts.keys()];
  if (allowed.length === 0) throw ApiError.badQuery('sort', 'This list cannot be sorted.');
  const seen = new Set<string>();
  return raw.split(',').map((term) => {
    const trimmed = term.trim();
    const descending = trimmed.startsWith('-');
    const field = descending ? trimmed.slice(1) : trimmed;
    const fieldSpec = spec.sorts.get(field);
    if (!fieldSpec) {
      throw ApiError.badQuery('sort', `Sorting by "${field}" is not supported here; allowed fields: ${allowed.join(', ')}.`);
    }
    if (seen.has(field)) throw ApiError.badQuery('sort', `The sort field ${field} is given twice.`);
    seen.add(field);
    return { field, direction: descending ? 'DESC' : 'ASC', spec: fieldSpec };
  });
}

/** Parses `expand=a,b.c` against the allowed paths; a nested path brings its parents. */
export function parseExpand(query: QueryParams, allowed: readonly string[]): Set<string> {
  const raw = single(query, 'expand');
  const expand = new Set<string>();
  if (raw === undefined) return expand;
  if (allowed.length === 0) throw ApiError.badQuery('expand', 'This resource has nothing to expand.');
  for (const path of raw.split(',').map((p) => p.trim())) {
    if (!allowed.includes(path)) {
      throw ApiError.badQuery('expand', `"${path}" cannot be expanded here; allowed: ${allowed.join(', ')}.`);
    }
    const parts = path.split('.');
    parts.forEach((_, i) => expand.add(parts.slice(0, i + 1).join('.')));
  }
  return expand;
}

/** Refuses query parameters the endpoint does not know, naming the first one. */
export function rejectUnknownParams(query: QueryParams, known: readonly string[], allowFilters = false): void {
  for (const name of Object.keys(query)) {
    if (known.includes(name) || (allowFilters && name.startsWith('filter'))) continue;
    throw ApiError.badQuery(name, `Unknown query parameter ${name}.`);
  }
}

function parsePageSize(query: QueryParams): number {
  const raw = single(query, 'page_size');
  if (raw === undefined) return DEFAULT_PAGE_SIZE;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE_SIZE) {
    throw ApiError.badQuery('page_size', `page_size must be an integer from 1 to ${MAX_PAGE_SIZE}, got "${raw}".`);
  }
  return Number(raw);
}

/**
 * Fingerprints of the filters and sorts asked for lately, so that a client paging one list does not hash it each time;
 * only short ones are kept (at most 1,000 of at most 512 characters), so that long filter values cannot fill memory.
 */
const fingerprints = new Map<string, string>();

function fingerprintOf(filters: FilterCondition[], sort: SortTerm[]): string {
  const canonical = JSON.stringify([filters.map((f) => [f.field, f.operator, f.value]), sort.map((s) => [s.field, s.direction])]);
  let fingerprint = fingerprints.get(canonical);
  if (fingerprint === undefined) {
    fingerprint = createHash('sha256').update(canonical).digest('base64url').slice(0, 12);
    if (canonical.length <= 512) {
      if (fingerprints.size >= 1000) fingerprints.clear();
      fingerprints.set(canonical, fingerprint);
    }
  }
  return fingerprint;
}

/** A cursor is the keyset of the last row served plus the fingerprint of the query; base64url JSON, opaque to clients. */
export function encodeCursor(values: unknown[], fingerprint: string): string {
  return Buffer.from(JSON.stringify({ k: values, f: fingerprint })).toString('base64url');
}

function decodeCursor(raw: string, fingerprint: string, sort: SortTerm[]): unknown[] {
  const invalid = (detail: string) => ApiError.badQuery('cursor', detail, 'invalid_cursor');
  if (raw.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw invalid('The cursor is not one this API issued.');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid('The cursor is not one this API issued.');
  }
  const { k, f } = (decoded ?? {}) as { k?: unknown; f?: unknown };
  if (!Array.isArray(k) || typeof f !== 'string' || k.length !== sort.length + 1) {
    throw invalid('The cursor is not one this API issued.');
  }
  if (f !== fingerprint) {
    throw invalid('The cursor was made for other filters or another sort; keep them unchanged while paging.');
  }
  const terms: FieldSpec[] = [...sort.map((s) => s.spec), { column: 'id', type: 'uuid' }];
  return k.map((value, i) => {
    const spec = terms[i];
    if (value === null && spec.nullable) return null;
    if (typeof value !== 'string') throw invalid('The cursor is not one this API issued.');
    try {
      // Enum values in a cursor were valid when issued; only their shape is checked again.
      return parseValue(value, spec.type === 'enum' ? { ...spec, type: 'string' } : spec, 'cursor', 'cursor');
    } catch {
      throw invalid('The cursor is not one this API issued.');
    }
  });
}

/** Reads page_size, cursor, filter[…], sort and expand for a list endpoint, refusing anything it does not declare. */
export function parseListQuery(query: QueryParams, spec: ListSpec, extraParams: readonly string[] = []): ListQuery {
  const known = ['page_size', 'cursor', ...extraParams];
  if (spec.sorts.size) known.push('sort');
  if (spec.expansions.length) known.push('expand');
  rejectUnknownParams(query, known, true);
  const pageSize = parsePageSize(query);
  const filters = parseFilters(query, spec);
  const sort = parseSort(query, spec);
  const expand = parseExpand(query, spec.expansions);
  const fingerprint = fingerprintOf(filters, sort);
  const cursor = single(query, 'cursor');
  const after = cursor === undefined || cursor === '' ? null : decodeCursor(cursor, fingerprint, sort);
  return { pageSize, after, filters, sort, expand, fingerprint };
}
