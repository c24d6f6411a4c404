import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/generate-sql.js';

/** The SQL of the readiness probe (health.ts). */
@Injectable()
export class HealthRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Resolves once PostgreSQL has answered a statement through the pool (or the pooler), as every request's would. */
  @GenerateSql({ params: [] })
  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }
}
