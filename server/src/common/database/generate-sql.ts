import type { DataSource, EntityManager } from 'typeorm';

/**
 * Marks a repository method whose SQL is snapshotted to `server/src/queries/<file>.sql` (`npm run sql` writes the
 * files, sql-snapshots.spec.ts fails when one is stale), so a changed query shows in review. The generator calls the
 * method with `params` against a throwaway database and writes every statement it ran.
 */
export interface GenerateSqlOptions {
  /** Told apart in the snapshot when one method is called several ways (`-- Repository.method (name)`). */
  name?: string;
  /**
   * The arguments the generator calls the method with: values (`DummyValue.MANAGER` stands for an EntityManager on
   * the throwaway database), or a function of that database for arguments built from it.
   */
  params?: readonly unknown[] | ((database: { manager: EntityManager; dataSource: DataSource }) => readonly unknown[]);
}

/** Example arguments: fixed, so the snapshots do not change from one run to the next. */
export const DummyValue = {
  /** Replaced by an EntityManager of the throwaway database (for a method that joins the caller's transaction). */
  MANAGER: Symbol('DummyValue.MANAGER'),
  UUID: '00000000-0000-4000-8000-000000000001',
  COMPANY_ID: '00000000-0000-4000-8000-0000000000c0',
  INTEGRATOR_ID: '00000000-0000-4000-8000-0000000000a0',
  STRING: 'example',
  NUMBER: 1,
  DATE: '2026-01-31',
  TIMESTAMP: new Date('2026-01-31T10:00:00.000Z'),
  BOOLEAN: true,
} as const;

export interface SqlExample {
  method: string;
  options: GenerateSqlOptions;
}

const EXAMPLES = Symbol('flusso:generate-sql');

type WithExamples = { [EXAMPLES]?: SqlExample[] };

/** `@GenerateSql({ params: [...] })` on a repository method; several option sets call it several ways. */
export function GenerateSql(...options: GenerateSqlOptions[]): MethodDecorator {
  return (target, key) => {
    const owner = target as WithExamples;
    // A subclass gets its own list, copied from its parent's, so decorating it leaves the parent's snapshot alone.
    const examples = Object.prototype.hasOwnProperty.call(owner, EXAMPLES) ? owner[EXAMPLES]! : (owner[EXAMPLES] = [...(owner[EXAMPLES] ?? [])]);
    for (const option of options.length ? options : [{}]) examples.push({ method: String(key), options: option });
  };
}

/** The decorated methods of a class, in the order they are declared. */
export function sqlExamples(repository: abstract new (...args: never[]) => unknown): SqlExample[] {
  return (repository.prototype as WithExamples)[EXAMPLES] ?? [];
}
