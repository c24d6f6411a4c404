import { ESLint } from 'eslint';

/**
 * The floor that keeps SQL in repositories (eslint.config.js): the same data access is refused in a service and
 * allowed in a repository. The file names are real files, so the rules that apply to them are the ones lint runs.
 */
describe('the data-access floor', () => {
  const eslint = new ESLint();
  const problems = async (filePath: string, code: string) =>
    (await eslint.lintText(code, { filePath }))[0].messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);

  const access = [
    `export const a = (db: any) => db.query('SELECT 1');`,
    `export const b = (db: any) => db.getRepository('Account').findOneBy({ id: '1' });`,
    `export const c = (repository: any) => repository.createQueryBuilder('a').getMany();`,
    `export const d = (manager: any) => manager.findOne('Account', {});`,
    `export const e = (db: any) => db.manager.save({});`,
    `import { queryPrepared } from '../common/database/prepared.js';\nexport const f = (m: any) => queryPrepared(m, 'SELECT 1', []);`,
  ];

  it.each(access)('refuses %s outside a repository', async (code) => {
    expect(await problems('server/src/accounts/accounts.service.ts', code)).toEqual([expect.stringMatching(/belongs? in a repository|Inject a repository/)]);
  });

  it.each(access)('allows %s in a repository', async (code) => {
    expect(await problems('server/src/accounts/accounts.repository.ts', code)).toEqual([]);
  });

  it('refuses a TypeORM repository injected into a service', async () => {
    const code = `import { InjectRepository } from '@nestjs/typeorm';\nexport class S { constructor(@InjectRepository(Object) readonly r: unknown) {} }`;
    expect(await problems('server/src/accounts/accounts.service.ts', code)).toEqual(['Inject a repository (*.repository.ts), not a TypeORM Repository.']);
  });
});
