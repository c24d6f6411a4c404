import type { EntityManager } from 'typeorm';

type Loads<T extends readonly unknown[]> = { [K in keyof T]: () => Promise<T[K]> };

/**
 * Runs independent loads (a page's expansions) side by side on the pool; inside a transaction, whose one connection
 * cannot overlap queries, one after another.
 */
export async function loadAll<T extends readonly unknown[]>(manager: EntityManager, loads: Loads<T>): Promise<T> {
  if (!manager.queryRunner?.isTransactionActive) return (await Promise.all(loads.map((load) => load()))) as unknown as T;
  const results: unknown[] = [];
  for (const load of loads) results.push(await load());
  return results as unknown as T;
}
