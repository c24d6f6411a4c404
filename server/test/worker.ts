import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../src/config/config.js';
import { WorkerModule } from '../src/worker.module.js';

/** The real worker in the test's process (relay, fan-out, delivery engine), on the test's database. */
export async function startWorker(databaseUrl: string, env: Record<string, string> = {}): Promise<INestApplicationContext> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', ...env, DATABASE_URL: databaseUrl });
  const worker = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: false });
  worker.enableShutdownHooks();
  return worker;
}
