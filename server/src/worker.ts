import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/config.js';
import { preflight } from './processes/preflight.js';
import { runMain } from './config/run-main.js';
import { createWorker } from './worker.module.js';

runMain(async () => {
  const config = loadConfig();
  await preflight(config, false);
  const app = await createWorker(config);
  app.enableShutdownHooks();
  new Logger('Worker').log(`Flusso worker (${config.environment}) fanning out events and delivering webhooks and e-mail`);
});
