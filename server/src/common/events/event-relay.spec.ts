import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTestDatabase } from '../../../test/database.js';
import { loadConfig } from '../../config/config.js';
import { Company } from '../../companies/company.entity.js';
import { WorkerModule } from '../../worker.module.js';
import { DomainEvent } from './event.entity.js';
import { EventRelayService, EVENTS_QUEUE, type EventJob } from './event-relay.service.js';

describe('EventRelayService', () => {
  let worker: INestApplicationContext;
  let drop: () => Promise<void>;
  let db: DataSource;
  let queue: Queue<EventJob>;
  let relay: EventRelayService;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(loadConfig({ ...process.env, DATABASE_URL: database.url })), { logger: false });
    // Tests drive the relay batch by batch instead of through its background loop.
    relay = worker.get(EventRelayService);
    await relay.onApplicationShutdown();
    db = worker.get<DataSource>(getDataSourceToken());
    queue = worker.get<Queue<EventJob>>(getQueueToken(EVENTS_QUEUE));
  });

  afterAll(async () => {
    await worker.close();
    await drop();
  });

  it('queues each recorded event once, keyed by its id, and marks it relayed', async () => {
    const company = await db.getRepository(Company).save({ name: 'Rossi S.r.l.', country: 'IT', fiscalRegime: 'RF01', vatNumber: null });
    const ids = [randomUUID(), randomUUID()];
    await db
      .getRepository(DomainEvent)
      .save(ids.map((id, i) => ({ id, companyId: company.id, type: 'document.updated', payload: { number: `FV-${i}` }, relayedAt: null })));

    expect(await relay.relayBatch()).toBe(2);
    expect(await relay.relayBatch()).toBe(0);

    for (const [i, id] of ids.entries()) {
      const job = await queue.getJob(id);
      expect(job?.data).toMatchObject({ id, company_id: company.id, event: 'document.updated', data: { number: `FV-${i}` } });
    }
    const pending = await db.query('SELECT count(*)::int AS n FROM events WHERE relayed_at IS NULL');
    expect(pending[0].n).toBe(0);
    await queue.remove(ids[0]);
    await queue.remove(ids[1]);
  });

  it('relays again an event marked relayed whose job is not in the queue (Redis restarted empty), and only that one', async () => {
    const company = await db.getRepository(Company).save({ name: 'Verdi S.p.A.', country: 'IT', fiscalRegime: 'RF01', vatNumber: null });
    const [lost, recent] = [randomUUID(), randomUUID()];
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await db.getRepository(DomainEvent).save([
      // Relayed a minute ago, never dispatched, and no job holds it: the queue lost it.
      { id: lost, companyId: company.id, type: 'document.updated', payload: { number: 'FV-lost' }, relayedAt: aMinuteAgo, createdAt: aMinuteAgo },
      // Relayed a moment ago: its job may simply not have run yet.
      { id: recent, companyId: company.id, type: 'document.updated', payload: { number: 'FV-recent' }, relayedAt: new Date() },
    ]);
    expect(await queue.getJob(lost)).toBeUndefined();

    expect(await relay.sweep()).toBe(1);
    expect(await relay.sweep()).toBe(0);
    const [row] = await db.query('SELECT relayed_at FROM events WHERE id = $1', [lost]);
    expect(row.relayed_at).toBeNull();
    expect(await relay.relayBatch()).toBe(1);
    expect((await queue.getJob(lost))?.data).toMatchObject({ id: lost, data: { number: 'FV-lost' } });

    // The worker's fan-out takes the job again and marks the event dispatched.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [event] = await db.query('SELECT dispatched_at FROM events WHERE id = $1', [lost]);
      if (event.dispatched_at) break;
      if (Date.now() > deadline) throw new Error('the relayed-again event was never dispatched');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await queue.getJob(recent)).toBeUndefined();
    await queue.remove(lost);
  });
});
