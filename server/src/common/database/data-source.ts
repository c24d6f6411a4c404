import pg from 'pg';
import { EventSubscriber, type DataSourceOptions, type EntitySubscriberInterface, type TransactionStartEvent } from 'typeorm';
import { migrations } from '../../../../migrations/index.js';
import type { DatabaseSettings } from '../../config/config.js';
import { PREPARED_STATEMENTS } from './prepared.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

// A PostgreSQL `date` is a calendar day, not an instant: keep it the 'YYYY-MM-DD' string the database sends instead of
// a Date at local midnight (which a time zone can shift, and which TypeORM would format back into the same string).
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

// PostgreSQL writes a timestamptz as 'YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM]' (ISO DateStyle). That form is read here
// digit by digit into Date.UTC, about twice as fast as rewriting it as ISO 8601 for Date to parse, and several times
// faster than pg's general parser; a list page holds dozens of them. Anything else (BC dates, years before 1000,
// offsets with seconds, infinity) goes to pg's own parser.
const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);

/** The decimal number written at value[from, to), or -1 if a character there is not a digit. */
function digits(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

const [DASH, SPACE, COLON, DOT, PLUS, MINUS] = ['-', ' ', ':', '.', '+', '-'].map((char) => char.charCodeAt(0));

/** The ISO DateStyle form, or undefined for any other. Fractions past milliseconds are dropped, as Date does. */
export function readTimestamptz(value: string): Date | undefined {
  const length = value.length;
  if (length < 22 || value.charCodeAt(4) !== DASH || value.charCodeAt(7) !== DASH || value.charCodeAt(10) !== SPACE) return undefined;
  if (value.charCodeAt(13) !== COLON || value.charCodeAt(16) !== COLON) return undefined;
  let at = 19;
  let ms = 0;
  if (value.charCodeAt(at) === DOT) {
    const start = ++at;
    for (let scale = 100; at < length && at - start < 6; at++, scale /= 10) {
      const digit = value.charCodeAt(at) - 48;
      if (digit < 0 || digit > 9) break;
      ms += digit * scale;
    }
    if (at === start) return undefined;
    ms = Math.trunc(ms);
  }
  const sign = value.charCodeAt(at);
  if ((sign !== PLUS && sign !== MINUS) || (length !== at + 3 && length !== at + 6)) return undefined;
  const offsetMinutes = length === at + 6 ? (value.charCodeAt(at + 3) === COLON ? digits(value, at + 4, at + 6) : -1) : 0;
  const [year, month, day] = [digits(value, 0, 4), digits(value, 5, 7), digits(value, 8, 10)];
  const [hour, minute, second, offsetHours] = [digits(value, 11, 13), digits(value, 14, 16), digits(value, 17, 19), digits(value, at + 1, at + 3)];
  if (year < 1000 || Math.min(month, day, hour, minute, second, offsetHours, offsetMinutes) < 0) return undefined;
  const offset = (offsetHours * 60 + offsetMinutes) * 60_000 * (sign === PLUS ? 1 : -1);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset);
}

pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => readTimestamptz(value) ?? parseTimestamptz(value));

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
 * The one place TypeORM is configured, but for its entities: Nest's modules register theirs (autoLoadEntities), the
 * other data sources list them all (server/src/entities.ts). The schema changes only through migrations: never `synchronize`. With
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
