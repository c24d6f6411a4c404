import { OnWorkerEvent, WorkerHost, type Processor } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { QueueSettings } from '../../config/config.js';

type NestWorkerOptions = NonNullable<Parameters<typeof Processor>[1]>;

const consumers: NestWorkerOptions[] = [];

/**
 * A BullMQ consumer's options, for `@Processor`. Its hold on a job and its check for jobs whose worker died come from
 * QUEUE_LOCK_DURATION_MS and QUEUE_STALLED_INTERVAL_MS instead of BullMQ's 30 s defaults, under which a killed worker's
 * events (and every later event of their documents, which waits behind them) stood still for up to a minute.
 */
export function queueConsumer(options: NestWorkerOptions): NestWorkerOptions {
  consumers.push(options);
  return options;
}

/** Decorators run when their module is imported, before the configuration is read: the worker module fills it in here. */
export function configureQueueConsumers(settings: QueueSettings): void {
  for (const options of consumers) Object.assign(options, { lockDuration: settings.lockDurationMs, stalledInterval: settings.stalledIntervalMs });
}

/**
 * A queue's consumer: Nest's WorkerHost whose worker's errors (Redis unreachable, a cluster down) are logged as one line
 * each. BullMQ emits them as 'error' events and, with no listener, prints each to the console with its stack.
 */
export abstract class QueueConsumer extends WorkerHost {
  private readonly queueLogger = new Logger(this.constructor.name);

  @OnWorkerEvent('error')
  onWorkerError(error: Error): void {
    this.queueLogger.warn(`queue worker: ${error.message}`);
  }
}

const heard = new WeakSet<Queue>();

/**
 * A queue's producer side: its connection errors (Redis unreachable) logged as one line each, once per queue however
 * many services hold it. BullMQ, with no 'error' listener, prints each to the console with its stack.
 */
export function logQueueErrors(queue: Queue): void {
  if (heard.has(queue)) return;
  heard.add(queue);
  const logger = new Logger(`Queue ${queue.name}`);
  queue.on('error', (error: Error) => logger.warn(`queue: ${error.message}`));
}
