import { Module, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { XmlPool } from './fatturapa/index.js';

/**
 * The process's one XML pool (fatturapa/xml-pool.ts), for the API's invoice routes and the worker's SDI sandbox alike;
 * its child processes end with the application.
 */
@Module({
  providers: [{ provide: XmlPool, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new XmlPool(config.invoices.xml) }],
  exports: [XmlPool],
})
export class XmlPoolModule implements OnModuleDestroy {
  constructor(private readonly pool: XmlPool) {}

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}
