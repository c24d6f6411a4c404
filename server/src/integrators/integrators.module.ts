import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '../common/auth/api-key.entity.js';
import { CompanyGrant } from './company-grant.entity.js';
import { Integrator } from './integrator.entity.js';

/** Integrators, their API keys and grants: managed by the CLI (IntegratorsService); the API reads them. */
@Module({ imports: [TypeOrmModule.forFeature([Integrator, ApiKey, CompanyGrant])] })
export class IntegratorsModule {}
