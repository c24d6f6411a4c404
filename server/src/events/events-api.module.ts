import { Module } from '@nestjs/common';
import { EventReadsRepository } from './event-reads.repository.js';
import { EventReadsService } from './event-reads.service.js';
import { AllEventsController, EventsController } from './events.controller.js';

/** The events API: the outbox read in commit order of a company or of every company a key may read (the outbox itself is common/events). */
@Module({ controllers: [EventsController, AllEventsController], providers: [EventReadsService, EventReadsRepository] })
export class EventsApiModule {}
