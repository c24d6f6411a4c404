import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../src/config/config.js';
import { WorkerModule, type WorkerOptions } from '../src/worker.module.js';

/**
 * The real worker in the test's process (fan-out, delivery engine, retention, SDI), on the test's database; a test
 * that moves time passes a ManualClock.
 */
export async function startWorker(databaseUrl: string, env: Record<string, string> = {}, options: WorkerOptions = {}): Promise<INestApplicationContext> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', ...env, DATABASE_URL: databaseUrl });
  const worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, options), { logger: false });
  worker.enableShutdownHooks();
  return worker;
}
