import 'reflect-metadata';
import { createApi } from './app.js';
import { loadConfig } from './config/config.js';
import { preflight } from './processes/preflight.js';
import { runMain } from './config/run-main.js';

runMain(async () => {
  const config = loadConfig();
  await preflight(config, config.environment === 'development');
  const app = await createApi(config);
  await app.listen({ port: config.port, host: config.host });
  app.getHttpAdapter().getInstance().log.info(`Flusso API (${config.environment}) listening on http://localhost:${config.port}/api/v1`);
});
