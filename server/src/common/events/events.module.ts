import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEvent } from './event.entity.js';
import { EventsService } from './events.service.js';

@Global()
@Module({ imports: [TypeOrmModule.forFeature([DomainEvent])], providers: [EventsService], exports: [EventsService] })
export class EventsModule {}
