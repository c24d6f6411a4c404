import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { FailedRequest } from '../common/logging/request-recorder.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import type { Environment } from '../config/config.js';
import { RequestLog, STATUS_CLASSES } from './request-log.entity.js';

/** How long a failed request stays in its integrator's log (the list shows no older one; the worker deletes them). */
export const REQUEST_LOG_DAYS = 7;

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The list of an integrator's failed requests: its filters, newest first. */
export const requestLogList = defineList({
  alias: 'r',
  filters: {
    status: { column: 'r.status', type: 'integer' },
    status_class: { column: 'r.statusClass', type: 'enum', values: STATUS_CLASSES },
    method: { column: 'r.method', type: 'enum', values: HTTP_METHODS },
    route: { column: 'r.route', type: 'string', nullable: true },
    path: { column: 'r.path', type: 'string' },
    request_id: { column: 'r.requestId', type: 'string' },
    key_prefix: { column: 'r.keyPrefix', type: 'string' },
    company_id: { column: 'r.companyId', type: 'uuid', nullable: true },
    created_at: { column: 'r.createdAt', type: 'datetime' },
  },
  sorts: { created_at: { column: 'r.createdAt', type: 'datetime' } },
  defaultSort: '-created_at',
});

/** Whose log: an integrator's, in one environment (a development key sees development requests only). */
export interface LogScope {
  integratorId: string;
  environment: Environment;
}

const EXAMPLE_SCOPE: LogScope = { integratorId: DummyValue.INTEGRATOR_ID, environment: 'development' };

const EXAMPLE_ENTRY: FailedRequest = {
  integratorId: DummyValue.INTEGRATOR_ID,
  environment: 'development',
  apiKeyId: DummyValue.UUID,
  keyPrefix: 'fls_dev_AbCd1234',
  companyId: DummyValue.COMPANY_ID,
  method: 'GET',
  route: '/companies/{company_id}/documents/{id}',
  path: `/api/v1/companies/${DummyValue.COMPANY_ID}/documents/${DummyValue.UUID}`,
  status: 404,
  errorCodes: ['not_found'],
  requestId: DummyValue.UUID,
  durationMs: 3.2,
  at: DummyValue.TIMESTAMP,
};

/** The SQL of the request log: the API's batched inserts, the integrator's reads, and the worker's retention. */
@Injectable()
export class RequestLogsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Writes a batch in one INSERT: each column one array parameter, turned back into rows by unnest. */
  @GenerateSql({ params: [[EXAMPLE_ENTRY]] })
  async insert(entries: readonly FailedRequest[]): Promise<void> {
    if (entries.length === 0) return;
    const column = <T>(of: (entry: FailedRequest) => T) => entries.map(of);
    await this.db.query(
      `INSERT INTO request_logs (integrator_id, environment, api_key_id, key_prefix, company_id, method, route, path, status, status_class,
                                 error_codes, request_id, duration_ms, created_at)
       SELECT integrator_id, environment, api_key_id, key_prefix, company_id, method, route, path, status,
              CASE WHEN status >= 500 THEN '5xx' ELSE '4xx' END, string_to_array(error_codes, ','), request_id, duration_ms, created_at
         FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::uuid[], $6::text[], $7::text[], $8::text[], $9::smallint[],
                     $10::text[], $11::text[], $12::real[], $13::timestamptz[])
           AS t(integrator_id, environment, api_key_id, key_prefix, company_id, method, route, path, status, error_codes, request_id,
                duration_ms, created_at)`,
      [
        column((e) => e.integratorId),
        column((e) => e.environment),
        column((e) => e.apiKeyId),
        column((e) => e.keyPrefix),
        column((e) => e.companyId),
        column((e) => e.method),
        column((e) => e.route),
        column((e) => e.path),
        column((e) => e.status),
        // unnest flattens an array of arrays: each row's codes travel as one comma-separated text (codes are snake_case).
        column((e) => e.errorCodes.join(',')),
        column((e) => e.requestId),
        column((e) => e.durationMs),
        column((e) => e.at),
      ],
    );
  }

  /** One page of the scope's failed requests of the last REQUEST_LOG_DAYS. */
  @GenerateSql({ params: [EXAMPLE_SCOPE, parseListQuery({}, requestLogList)] })
  page(scope: LogScope, query: ListQuery): Promise<{ rows: RequestLog[]; cursor: string | null }> {
    return fetchPage(this.recent(scope), requestLogList, query);
  }

  /** One of the scope's failed requests of the last REQUEST_LOG_DAYS, or null. */
  @GenerateSql({ params: [EXAMPLE_SCOPE, DummyValue.UUID] })
  get(scope: LogScope, id: string): Promise<RequestLog | null> {
    return this.recent(scope).andWhere('r.id = :id', { id }).getOne();
  }

  /** Deletes up to `limit` entries recorded before `before` (the worker's retention); returns how many. */
  @GenerateSql({ params: [DummyValue.TIMESTAMP, 500] })
  async deleteBefore(before: Date, limit: number): Promise<number> {
    const [, deleted]: [unknown, number] = await this.db.query(
      `DELETE FROM request_logs WHERE id IN (SELECT id FROM request_logs WHERE created_at < $1 LIMIT $2)`,
      [before, limit],
    );
    return deleted;
  }

  private recent(scope: LogScope) {
    return this.db
      .getRepository(RequestLog)
      .createQueryBuilder('r')
      .where('r.integratorId = :integratorId AND r.environment = :environment', scope)
      .andWhere(`r.createdAt > now() - make_interval(days => ${REQUEST_LOG_DAYS})`);
  }
}
