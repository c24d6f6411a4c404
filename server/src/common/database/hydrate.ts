import type { Driver, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';

/** Column types the PostgreSQL driver hydrates as pg reads them (prepareHydratedValue changes nothing of theirs). */
const READ_AS_IS = new Set([
  'uuid',
  'text',
  'varchar',
  'character varying',
  'char',
  'character',
  'numeric',
  'decimal',
  'smallint',
  'integer',
  'bigint',
  'json',
  'jsonb',
]);

/** Whether the driver's hydration changes a value of this column (its type, an array, a transformer). */
const hydratedByDriver = (column: ColumnMetadata): boolean =>
  Boolean(column.transformer) || typeof column.type !== 'string' || !READ_AS_IS.has(column.type) || column.isArray;

/** One member of the entities a reader makes: where its value is in a row (a key or an index), and its column. */
export interface ReadMember {
  property: string;
  /** The row's key (object rows) or index (array rows) of the value; null when the row has no such value. */
  source: string | number | null;
  column: ColumnMetadata;
}

/**
 * A function from a row to an entity, compiled once for its members: every entity it makes has the same members in
 * the same order, written as one object literal. A loop that sets members by name (`entity[property] = …`) costs
 * ~1 µs a row in a list page's hot path, and leaves V8 guessing the shape at every read the presenter makes; the
 * compiled reader costs a few percent of that. Values pass through the driver's hydration only for the columns it
 * changes (hydratedByDriver), so an entity is what TypeORM would make of the row.
 */
export function compileReader<E>(driver: Driver, members: ReadMember[]): (row: unknown) => E {
  const hydrations: Array<(value: unknown) => unknown> = [];
  const parts = members.map(({ property, source, column }) => {
    // A quoted `"__proto__": …` in an object literal would set the prototype, not a member.
    if (property === '__proto__') throw new Error('an entity member cannot be named __proto__');
    const value = source === null ? 'undefined' : `row[${JSON.stringify(source)}]`;
    if (!hydratedByDriver(column)) return `${JSON.stringify(property)}: ${value}`;
    hydrations.push((raw) => driver.prepareHydratedValue(raw, column));
    return `${JSON.stringify(property)}: h[${hydrations.length - 1}](${value})`;
  });
  // The source is made of JSON string literals and indexes only: no text from a row or a request reaches it.
  return new Function('h', `return (row) => ({ ${parts.join(', ')} });`)(hydrations) as (row: unknown) => E;
}

const readers = new WeakMap<ColumnMetadata[], (row: unknown) => unknown>();

/**
 * Entities from rows of their table read with plain SQL (`RETURNING *`, `SELECT *`), with the conversions TypeORM
 * applies when it reads (dates, numbers, its column types), for hot paths where its query building costs more than
 * the query.
 */
export function hydrate<E extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<E>, rows: Array<Record<string, unknown>>): E[] {
  const { columns } = manager.connection.getMetadata(target);
  let read = readers.get(columns);
  if (!read) {
    const members = columns.map((column) => ({ property: column.propertyName, source: column.databaseName, column }));
    readers.set(columns, (read = compileReader(manager.connection.driver, members)));
  }
  return rows.map(read) as E[];
}
