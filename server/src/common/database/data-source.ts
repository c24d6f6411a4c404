import pg from 'pg';
import { DataSource, EventSubscriber, type DataSourceOptions, type EntitySubscriberInterface, type TransactionStartEvent } from 'typeorm';
import { migrations } from '../../../../migrations/index.js';
import type { DatabaseSettings } from '../../config/config.js';
import { entities } from './entities.js';
import { PREPARED_STATEMENTS } from './prepared.js';
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
 * Through a transaction-mode pooler a connection's settings would outlive the transaction and reach whichever client
 * the pooler hands that server connection to next (the worker's included), and PgBouncer refuses them as startup
 * parameters: so each transaction sets its own timeouts, which end with it.
 */
function transactionTimeouts(settings: DatabaseSettings): new () => EntitySubscriberInterface {
  const values = [String(settings.statementTimeoutMs), String(settings.lockTimeoutMs)];
  class TransactionTimeouts implements EntitySubscriberInterface {
    async afterTransactionStart({ queryRunner }: TransactionStartEvent): Promise<void> {
      await queryRunner.query(`SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $2, true)`, values);
    }
  }
  // TypeORM instantiates only the subscriber classes registered as such.
  EventSubscriber()(TransactionTimeouts);
  return TransactionTimeouts;
}

/**
 * The one place TypeORM is configured. The schema changes only through migrations: never `synchronize`. With
 * `settings` (the API), the pool has their size and wait, and statements and lock waits their timeouts (set per
 * connection, or per transaction through a pooler); without (the worker, the CLI: migrations, imports, the demo's
 * COPY), a pool of 10 and no timeouts. `preparedStatements` false runs every statement unnamed (DB_PREPARED_STATEMENTS).
 */
export function dataSourceOptions(databaseUrl: string, settings?: DatabaseSettings, preparedStatements = true): DataSourceOptions {
  const timeouts = settings && !settings.pooled ? { statement_timeout: settings.statementTimeoutMs, lock_timeout: settings.lockTimeoutMs } : {};
  const pool = settings ? { max: settings.poolSize, connectionTimeoutMillis: settings.poolWaitMs, ...timeouts } : { max: 10, connectionTimeoutMillis: 5000 };
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
    subscribers: settings?.pooled ? [transactionTimeouts(settings)] : [],
    // pg ignores the member it does not know; prepared.ts reads it back from the data source's options.
    extra: { ...pool, application_name: 'flusso', [PREPARED_STATEMENTS]: preparedStatements },
  };
}

export function createDataSource(databaseUrl: string): DataSource {
  return new DataSource(dataSourceOptions(databaseUrl));
}
