import type { DataSource } from 'typeorm';
import { runMigrations } from '../common/database/migrate.js';
import type { AppConfig } from '../config/config.js';
import { preflight } from '../processes/preflight.js';
import { redisAuthInvalidation } from '../common/auth/auth-invalidation.js';
import { createRedis, type RedisClient } from '../common/redis/redis-client.js';
import { createDataSource } from '../entities.js';
import { IntegratorsService } from '../integrators/integrators.service.js';
import { invoicesOutsideNest } from '../invoices/invoices-outside-nest.js';
import type { InvoicesService } from '../invoices/invoices.service.js';
import { InvoiceProductCatalogue } from '../products/invoice-catalogue.js';
import { ProductsRepository } from '../products/products.repository.js';
import { WebhookEndpointsService } from '../webhooks/webhook-endpoints.service.js';
import { XmlPool } from '../invoices/fatturapa/index.js';

/**
 * What an operator command works with: the configuration, and PostgreSQL and Redis connections opened on first use
 * (after the preflight check, so an unreachable service is one clear line) and closed when the command ends.
 */
export class Operator {
  private dataSource?: DataSource;
  private redis?: RedisClient;
  private xml?: XmlPool;

  constructor(readonly config: AppConfig) {}

  /** The database, checked and connected. `createDatabase` makes it first when it does not exist yet. */
  async db(options: { createDatabase?: boolean } = {}): Promise<DataSource> {
    if (!this.dataSource) {
      await preflight(this.config, options.createDatabase ?? false);
      // TypeORM logs through console.log; stdout belongs to the command's output. PostgreSQL directly (DATABASE_DIRECT_URL):
      // migrations and their advisory lock need a session, and an operator's command is one client, not a fleet.
      this.dataSource = await createDataSource(this.config.databaseDirectUrl).initialize();
    }
    return this.dataSource;
  }

  /** Runs the pending migrations (under their advisory lock), creating the database if needed; returns their names. */
  async migrate(): Promise<string[]> {
    return runMigrations(await this.db({ createDatabase: true }));
  }

  /** Tells running API processes to drop cached keys and grants. */
  readonly invalidateAuth = async (): Promise<void> => {
    this.redis ??= createRedis(this.config, { maxRetriesPerRequest: 2 });
    await redisAuthInvalidation(this.redis, this.config.redisPrefix)();
  };

  async integrators(): Promise<IntegratorsService> {
    return new IntegratorsService(await this.db(), this.config, this.invalidateAuth);
  }

  /** E-invoices as the API handles them, with the same services the API wires (as reconcileByIdentifier does). */
  async invoices(): Promise<InvoicesService> {
    const db = await this.db();
    // Files are read in the XML pool's child processes, as the API reads them; they end with the command.
    this.xml ??= new XmlPool(this.config.invoices.xml);
    return invoicesOutsideNest(db, this.xml, new InvoiceProductCatalogue(new ProductsRepository(db)));
  }

  async webhooks(): Promise<WebhookEndpointsService> {
    return new WebhookEndpointsService(await this.db(), this.config);
  }

  async close(): Promise<void> {
    await this.xml?.close();
    await this.dataSource?.destroy();
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }
}
