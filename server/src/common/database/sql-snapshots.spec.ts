import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { diff } from 'jest-diff';
import { DataSource, EntityManager } from 'typeorm';
import { createTestDatabase } from '../../../test/database.js';
import { createDataSource } from './data-source.js';
import { DummyValue, GenerateSql } from './generate-sql.js';
import { queryPrepared } from './prepared.js';
import { generateSnapshots, QUERIES_DIR, repositoryFiles, snapshotName, snapshotOf, type Constructor } from './sql-snapshots.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = createDataSource(database.url);
  await dataSource.initialize();
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

/** `npm run sql` runs this file with FLUSSO_WRITE_SQL=1: the snapshots are written instead of compared. */
const writing = process.env.FLUSSO_WRITE_SQL === '1';

describe('the SQL snapshots (server/src/queries)', () => {
  it('match what every repository runs: run `npm run sql` and commit the files when this fails', async () => {
    const snapshots = await generateSnapshots(dataSource);
    const files = existsSync(QUERIES_DIR) ? readdirSync(QUERIES_DIR).filter((file) => file.endsWith('.sql')) : [];
    if (writing) {
      mkdirSync(QUERIES_DIR, { recursive: true });
      for (const file of files) if (!snapshots.has(file)) rmSync(join(QUERIES_DIR, file));
      for (const [file, text] of snapshots) writeFileSync(join(QUERIES_DIR, file), text);
      return;
    }
    const problems: string[] = [];
    for (const [file, text] of snapshots) {
      const path = join(QUERIES_DIR, file);
      if (!existsSync(path)) problems.push(`${path} is missing.`);
      else {
        const stored = readFileSync(path, 'utf8');
        if (stored !== text) problems.push(`${path} is stale:\n${diff(stored, text, { aAnnotation: 'committed', bAnnotation: 'generated' })}`);
      }
    }
    for (const file of files) if (!snapshots.has(file)) problems.push(`${join(QUERIES_DIR, file)} belongs to no repository.`);
    if (problems.length) throw new Error(`${problems.join('\n\n')}\n\nRun \`npm run sql\` and commit server/src/queries.`);
  });

  it('are found by file name and named after it', () => {
    const files = repositoryFiles();
    expect(files.every((file) => file.startsWith('server/src/') && file.endsWith('.repository.ts'))).toBe(true);
    expect(snapshotName('server/src/accounts/accounts.repository.ts')).toBe('accounts.repository.sql');
  });
});

describe('a snapshot', () => {
  @Injectable()
  class ExampleRepository {
    constructor(private readonly manager: EntityManager) {}

    @GenerateSql({ params: [DummyValue.COMPANY_ID] })
    async count(companyId: string): Promise<number> {
      const [row] = await this.manager.query(`SELECT count(*)::int AS n FROM accounts WHERE company_id = $1`, [companyId]);
      return row.n;
    }

    @GenerateSql({ name: 'in the caller transaction', params: [DummyValue.MANAGER, DummyValue.UUID] })
    async named(manager: EntityManager, id: string): Promise<unknown[]> {
      return queryPrepared(manager, 'SELECT id FROM companies WHERE id = $1', [id]);
    }

    @GenerateSql({ params: [DummyValue.UUID] })
    async failingWrite(id: string): Promise<void> {
      await this.manager.transaction(async (manager) => {
        await manager.query(`INSERT INTO accounts (id, company_id) VALUES ($1, $1)`, [id]);
        await manager.query(`SELECT 'never reached'`);
      });
    }

    @GenerateSql()
    async nothing(): Promise<void> {}
  }

  it('lists, under each method name, every statement the method sent, failures and named statements included', async () => {
    const text = await snapshotOf('server/src/example/example.repository.ts', [ExampleRepository as unknown as Constructor], dataSource);
    expect(text.split('\n')[0]).toBe('-- Written by `npm run sql` from server/src/example/example.repository.ts: do not edit.');
    const blocks = text.trimEnd().split('\n\n-- ');
    expect(blocks[1]).toBe(['ExampleRepository.count', 'SELECT', '  count(*)::int AS n', 'FROM', '  accounts', 'WHERE', '  company_id = $1;'].join('\n'));
    expect(blocks[2]).toBe(['ExampleRepository.named (in the caller transaction)', 'SELECT', '  id', 'FROM', '  companies', 'WHERE', '  id = $1;'].join('\n'));
    expect(blocks[3]).toMatch(
      /^ExampleRepository\.failingWrite\nSTART TRANSACTION;\n\nINSERT INTO\n {2}accounts \(id, company_id\)\nVALUES\n {2}\(\$1, \$1\);\n\nROLLBACK;$/,
    );
    expect(blocks[4]).toBe('ExampleRepository.nothing\n-- (ran no SQL)');
    expect(text.endsWith(';\n\n-- ExampleRepository.nothing\n-- (ran no SQL)\n')).toBe(true);
  });
});
