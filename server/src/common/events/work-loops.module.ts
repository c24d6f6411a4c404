import { type DynamicModule, Global, Module } from '@nestjs/common';
import { CLOCK, type Clock } from '../clock/clock.port.js';
import { SystemClock } from '../clock/drivers/system.driver.js';
import { PgListener } from '../database/pg-listener.js';

/** What every worker loop shares: the one LISTEN connection that rings their doorbells, and the clock. */
@Global()
@Module({})
export class WorkLoopsModule {
  static forRoot(clock: Clock = new SystemClock()): DynamicModule {
    return { module: WorkLoopsModule, providers: [PgListener, { provide: CLOCK, useValue: clock }], exports: [PgListener, CLOCK] };
  }
}
