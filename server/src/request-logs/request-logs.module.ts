import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RequestLog } from './request-log.entity.js';
import { RequestLogWriter } from './request-log-writer.js';
import { RequestLogsController } from './request-logs.controller.js';
import { RequestLogsRepository } from './request-logs.repository.js';
import { RequestLogsService } from './request-logs.service.js';

/** The integrators' request log: the API's writer of failed requests (handed to the access log by app.ts) and its reads. */
@Module({
  imports: [TypeOrmModule.forFeature([RequestLog])],
  controllers: [RequestLogsController],
  providers: [RequestLogsRepository, RequestLogsService, RequestLogWriter],
  exports: [RequestLogWriter],
})
export class RequestLogsModule {}
