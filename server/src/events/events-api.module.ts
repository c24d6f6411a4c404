import { Module } from '@nestjs/common';
import { EventReadsRepository } from './event-reads.repository.js';
import { EventReadsService } from './event-reads.service.js';
import { EventsController } from './events.controller.js';

/** The events API: the outbox read in commit order (the outbox itself is common/events). */
@Module({ controllers: [EventsController], providers: [EventReadsService, EventReadsRepository] })
export class EventsApiModule {}
