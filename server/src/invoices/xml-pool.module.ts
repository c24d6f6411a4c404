import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { XmlPool } from './fatturapa/index.js';

/**
 * The process's one XML pool (fatturapa/xml-pool.ts), for the API's invoice routes and the worker's SDI sandbox alike;
 * its child processes end with the application, last: after the HTTP server has let the requests in flight finish
 * (GracefulShutdown) and the worker's queues have stopped, so that no invoice already received is refused for it.
 */
@Module({
  providers: [{ provide: XmlPool, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new XmlPool(config.invoices.xml) }],
  exports: [XmlPool],
})
export class XmlPoolModule implements OnApplicationShutdown {
  constructor(private readonly pool: XmlPool) {}

  onApplicationShutdown(): Promise<void> {
    return this.pool.close();
  }
}
