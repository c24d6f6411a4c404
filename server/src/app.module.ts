import { type DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from './accounts/accounts.module.js';
import { CategoriesModule } from './categories/categories.module.js';
import { AuthModule } from './common/auth/auth.module.js';
import { DatabaseModule } from './common/database/database.module.js';
import { EventsModule } from './common/events/events.module.js';
import { GracefulShutdown } from './common/http/graceful-shutdown.js';
import { HealthChecks } from './common/http/health.js';
import { DatabaseRepository } from './common/database/database.repository.js';
import { IdempotencyModule } from './common/idempotency/idempotency.module.js';
import { RedisModule } from './common/redis/redis.module.js';
import { CompaniesModule } from './companies/companies.module.js';
import type { AppConfig } from './config/config.js';
import { ConfigModule } from './config/config.module.js';
import { CounterpartsModule } from './counterparts/counterparts.module.js';
import { DocumentsModule } from './documents/documents.module.js';
import { IntegratorsModule } from './integrators/integrators.module.js';
import { FlowsModule } from './documents/flows.module.js';
import { PaymentsModule } from './payments/payments.module.js';
import { InvoicesModule } from './invoices/invoices.module.js';
import { ProductsModule } from './products/products.module.js';
import { SectionalsModule } from './sectionals/sectionals.module.js';
import { ReconciliationsModule } from './reconciliations/reconciliations.module.js';
import { TransactionsModule } from './transactions/transactions.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { SharesModule } from './shares/shares.module.js';
import { SandboxModule } from './sandbox/sandbox.module.js';
import { F24Module } from './f24/f24.module.js';
import { ApiKeysModule } from './api-keys/api-keys.module.js';
import type { Clock } from './common/clock/clock.port.js';
import { SystemClock } from './common/clock/drivers/system.driver.js';
import { RequestLogsModule } from './request-logs/request-logs.module.js';
import { EventsApiModule } from './events/events-api.module.js';

/** The API process: every HTTP-facing module. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot({ limits: true }),
        RedisModule,
        AuthModule.forRoot(clock),
        EventsModule,
        IdempotencyModule,
        IntegratorsModule,
        CompaniesModule,
        AccountsModule,
        CategoriesModule,
        CounterpartsModule,
        DocumentsModule,
        InvoicesModule,
        FlowsModule,
        ProductsModule,
        TransactionsModule,
        ReconciliationsModule,
        PaymentsModule,
        SectionalsModule,
        WebhooksModule,
        EventsApiModule,
        SharesModule,
        SandboxModule,
        F24Module,
        ApiKeysModule,
        RequestLogsModule,
      ],
      providers: [GracefulShutdown, HealthChecks, DatabaseRepository],
    };
  }
}
