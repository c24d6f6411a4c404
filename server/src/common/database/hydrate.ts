import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Entities from rows of their table read with plain SQL (`RETURNING *`, `SELECT *`), with the conversions TypeORM
 * applies when it reads (dates, numbers, its column types), for hot paths where its query building costs more than
 * the query.
 */
export function hydrate<E extends ObjectLiteral>(manager: EntityManager, target: EntityTarget<E>, rows: Array<Record<string, unknown>>): E[] {
  const { driver } = manager.connection;
  const columns = manager.connection.getMetadata(target).columns;
  return rows.map((raw) => {
    const entity = {} as Record<string, unknown>;
    for (const column of columns) entity[column.propertyName] = driver.prepareHydratedValue(raw[column.databaseName], column);
    return entity as E;
  });
}
