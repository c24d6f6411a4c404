import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { dataSourceOptions } from './data-source.js';
import { PooledTimeoutsCheck } from './pooled-timeouts.js';

@Module({})
export class DatabaseModule {
  /**
   * The data source of a process. The API's (`limits`) has the configured pool, waits, timeouts and company shares;
   * the worker's runs its background work without them, as the CLI does. Through a pooler, the API checks at start that
   * its statements outside a transaction have timeouts too (pooled-timeouts.ts).
   */
  static forRoot(options: { limits: boolean }): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config.databaseUrl, options.limits ? config.database : undefined, config.database.preparedStatements),
            // Each module registers its entities (TypeOrmModule.forFeature): this floor names none.
            autoLoadEntities: true,
            retryAttempts: 0,
          }),
        }),
      ],
      providers: options.limits ? [PooledTimeoutsCheck] : [],
    };
  }
}
