import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';

/**
 * Through a transaction-mode pooler each of the API's transactions sets its own timeouts, but a statement outside a
 * transaction (a list page, a key lookup) runs with the server connection's defaults. At start, the API says so in its
 * log when those defaults have no timeout while DB_STATEMENT_TIMEOUT_MS or DB_LOCK_TIMEOUT_MS asks for one.
 */
@Injectable()
export class PooledTimeoutsCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('Database');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { pooled, statementTimeoutMs, lockTimeoutMs } = this.config.database;
    if (!pooled) return;
    const [defaults] = await this.db
      .query<Array<{ statement: string; lock: string }>>(`SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock`)
      .catch(() => []);
    const missing = [
      ...(defaults?.statement === '0' && statementTimeoutMs > 0 ? ['statement_timeout'] : []),
      ...(defaults?.lock === '0' && lockTimeoutMs > 0 ? ['lock_timeout'] : []),
    ];
    if (missing.length === 0) return;
    this.logger.warn(
      `DATABASE_URL's pooled server connections have no ${missing.join(' or ')}: the API's transactions set their own, but its statements outside a ` +
        `transaction run without; give the API's pooler database a connect_query or its role defaults (README, "Operations at scale").`,
    );
  }
}
