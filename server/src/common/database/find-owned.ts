import type { FindOptionsWhere, Repository } from 'typeorm';
import { ApiError } from '../errors/api-error.js';
import { isUuid } from '../validation/uuid.js';

/**
 * Loads a row by id for a company: 404 when no such row exists, 403 when it belongs to another company (the caller
 * learns nothing of it). A malformed id cannot name a row, so it is a 404 too. The read names the company (its index,
 * and what a database sharded by company routes on); only a miss reads by id alone, to tell 403 from 404.
 */
export async function findOwned<E extends { id: string; companyId: string }>(
  repository: Repository<E>,
  companyId: string,
  id: string,
  what: string,
  pointer?: string,
): Promise<E> {
  if (!isUuid(id)) throw ApiError.notFound(what, pointer);
  const row = await repository.findOne({ where: { id, companyId: companyId.toLowerCase() } as FindOptionsWhere<E> });
  if (row) return row;
  if (!(await repository.exists({ where: { id } as FindOptionsWhere<E> }))) throw ApiError.notFound(what, pointer);
  throw ApiError.forbidden(`This API key has no access to this ${what.toLowerCase()}.`, pointer);
}

/** Rows by id in one query, as a map for attaching expansions. */
export async function byId<E extends { id: string }>(repository: Repository<E>, ids: Iterable<string | null>): Promise<Map<string, E>> {
  const unique = [...new Set([...ids].filter((id): id is string => Boolean(id)))];
  if (unique.length === 0) return new Map();
  const rows = await repository.createQueryBuilder('r').where('r.id IN (:...ids)', { ids: unique }).getMany();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * findOwned that also takes a row lock (`mode`), in one read when the row is the company's; any other answer is
 * findOwned's (404, or 403 for another company's row), without locking another company's row.
 */
export async function findOwnedLocked<E extends { id: string; companyId: string }>(
  repository: Repository<E>,
  companyId: string,
  id: string,
  what: string,
  mode: 'for_no_key_update' | 'for_key_share',
  pointer?: string,
): Promise<E> {
  if (isUuid(id)) {
    const row = await repository.findOne({ where: { id, companyId } as FindOptionsWhere<E>, lock: { mode } });
    if (row) return row;
  }
  await findOwned(repository, companyId, id, what, pointer);
  // It was the company's, and was deleted between the two reads.
  throw ApiError.notFound(what, pointer);
}
