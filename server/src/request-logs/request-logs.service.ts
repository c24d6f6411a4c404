import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { isUuid } from '../common/validation/uuid.js';
import type { RequestLogDto } from './request-log.dto.js';
import { presentRequestLog } from './request-log.presenter.js';
import { requestLogList, RequestLogsRepository, type LogScope } from './request-logs.repository.js';

/** The integrator's failed requests, read back: a page of them, or one. */
@Injectable()
export class RequestLogsService {
  constructor(private readonly logs: RequestLogsRepository) {}

  async list(scope: LogScope, params: QueryParams): Promise<Page<RequestLogDto>> {
    const query = parseListQuery(params, requestLogList);
    const { rows, cursor } = await this.logs.page(scope, query);
    return page(rows.map(presentRequestLog), cursor, query.pageSize);
  }

  async get(scope: LogScope, id: string): Promise<RequestLogDto> {
    const log = isUuid(id) ? await this.logs.get(scope, id.toLowerCase()) : null;
    if (!log) throw ApiError.notFound('Request log entry');
    return presentRequestLog(log);
  }
}
