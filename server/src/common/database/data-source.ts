import pg from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { migrations } from '../../../../migrations/index.js';
import type { DatabaseSettings } from '../../config/config.js';
import { entities } from './entities.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

// A PostgreSQL `date` is a calendar day, not an instant: keep it the 'YYYY-MM-DD' string the database sends instead of
// a Date at local midnight (which a time zone can shift, and which TypeORM would format back into the same string).
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

// PostgreSQL writes a timestamptz as 'YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM]' (ISO DateStyle). Rewritten as ISO 8601 it
// is parsed natively, about twice as fast as pg's general parser; a list page holds dozens of them. Anything else
// (BC dates, infinity) goes to pg's own parser.
const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);
const TIMESTAMPTZ = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d{1,6})?)([+-]\d\d)(?::?(\d\d))?$/;
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => {
  const match = TIMESTAMPTZ.exec(value);
  return match ? new Date(`${match[1]}T${match[2]}${match[3]}:${match[4] ?? '00'}`) : parseTimestamptz(value);
});

/**
 * The one place TypeORM is configured. The schema changes only through migrations: never `synchronize`. With
 * `settings` (the API), the pool has their size and wait, and statements and lock waits their timeouts; without (the worker, the CLI: migrations, imports, the demo's COPY), a
 * pool of 10 and no timeouts.
 */
export function dataSourceOptions(databaseUrl: string, settings?: DatabaseSettings): DataSourceOptions {
  const pool = settings
    ? {
        max: settings.poolSize,
        connectionTimeoutMillis: settings.poolWaitMs,
        statement_timeout: settings.statementTimeoutMs,
        lock_timeout: settings.lockTimeoutMs,
      }
    : { max: 10, connectionTimeoutMillis: 5000 };
  return {
    type: 'postgres',
    url: databaseUrl,
    entities,
    migrations,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    // Failed queries surface through the error filter, which logs them without echoing parameters.
    logging: false,
    extra: { ...pool, application_name: 'flusso' },
  };
}

export function createDataSource(databaseUrl: string): DataSource {
  return new DataSource(dataSourceOptions(databaseUrl));
}
