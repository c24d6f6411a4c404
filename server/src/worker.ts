import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from './config/config.js';
import { preflight } from './config/preflight.js';
import { runMain } from './config/run-main.js';
import { WorkerModule } from './worker.module.js';

runMain(async () => {
  const config = loadConfig();
  await preflight(config, false);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: ['warn', 'error', 'fatal'] });
  app.enableShutdownHooks();
  console.log(`Flusso worker (${config.environment}) relaying events to the queue`);
});
