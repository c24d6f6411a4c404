import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from './generate-sql.js';

/** Who holds PostgreSQL's connections: its clients by `application_name`, and how many it takes in all. */
export interface DatabaseConnections {
  byApplication: Array<{ application: string; connections: number }>;
  maxConnections: number;
}

/** The SQL about the database itself: the readiness probe's (common/http/health.ts) and the status command's. */
@Injectable()
export class DatabaseRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Resolves once PostgreSQL has answered a statement through the pool (or the pooler), as every request's would. */
  @GenerateSql({ params: [] })
  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  /** The client connections of the whole server (every database: they share `max_connections`), most first. */
  @GenerateSql({ params: [] })
  async connections(): Promise<DatabaseConnections> {
    const rows: Array<{ application: string; connections: number; max_connections: number }> = await this.db.query(
      `SELECT coalesce(nullif(a.application_name, ''), '(none)') AS application, count(*)::int AS connections,
              current_setting('max_connections')::int AS max_connections
         FROM pg_stat_activity a WHERE a.backend_type = 'client backend'
        GROUP BY 1 ORDER BY 2 DESC, 1`,
    );
    return {
      byApplication: rows.map(({ application, connections }) => ({ application, connections })),
      // Never empty: the statement's own connection is one of them.
      maxConnections: rows[0].max_connections,
    };
  }
}
