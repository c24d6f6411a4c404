import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './config.js';

const DIRECT = 'postgres://flusso:secret@10.0.0.5:5432/flusso';
const POOLER = 'postgres://flusso:secret@pgbouncer:6432/flusso';

describe('PostgreSQL through a pooler, and the processes of npm start', () => {
  it('reaches PostgreSQL directly for everything by default, with named statements', () => {
    const config = loadConfig({ DATABASE_URL: DIRECT });
    expect(config.databaseDirectUrl).toBe(DIRECT);
    expect(config.database).toMatchObject({ pooled: false, preparedStatements: true });
    expect(config.processes).toEqual({ api: 1, worker: 1 });
  });

  it('takes a direct URL set apart as the sign of a pooler: timeouts per transaction, no named statements', () => {
    const config = loadConfig({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: DIRECT });
    expect(config.databaseUrl).toBe(POOLER);
    expect(config.databaseDirectUrl).toBe(DIRECT);
    expect(config.database).toMatchObject({ pooled: true, preparedStatements: false });
    // The same URL twice is no pooler.
    expect(loadConfig({ DATABASE_URL: DIRECT, DATABASE_DIRECT_URL: DIRECT }).database.pooled).toBe(false);
  });

  it('lets DB_PREPARED_STATEMENTS decide for a pooler that keeps named statements, and refuses other values', () => {
    expect(loadConfig({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: DIRECT, DB_PREPARED_STATEMENTS: 'true' }).database.preparedStatements).toBe(true);
    expect(loadConfig({ DB_PREPARED_STATEMENTS: 'false' }).database.preparedStatements).toBe(false);
    expect(() => loadConfig({ DB_PREPARED_STATEMENTS: 'off' })).toThrow(new ConfigError('DB_PREPARED_STATEMENTS must be one of auto, true, false, got "off"'));
  });

  it('refuses a direct URL that is not PostgreSQL’s, without echoing it', () => {
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'mysql://root:hunter2@db/flusso' })).toThrow(
      new ConfigError('DATABASE_DIRECT_URL must be a postgres:// or postgresql:// URL such as postgres://postgres@127.0.0.1:5432/flusso'),
    );
  });

  it('runs 1 to 256 API processes and 0 to 256 workers', () => {
    expect(loadConfig({ API_PROCESSES: '4', WORKER_PROCESSES: '0' }).processes).toEqual({ api: 4, worker: 0 });
    expect(() => loadConfig({ API_PROCESSES: '0' })).toThrow(new ConfigError('API_PROCESSES must be an integer from 1 to 256, got "0"'));
    expect(() => loadConfig({ WORKER_PROCESSES: 'many' })).toThrow(ConfigError);
  });
});
