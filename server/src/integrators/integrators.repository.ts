import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { CompanyGrant } from './company-grant.entity.js';
import { Integrator } from './integrator.entity.js';

/** The SQL of integrators and of the grants that let their keys act inside companies. */
@Injectable()
export class IntegratorsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @GenerateSql({ params: [DummyValue.STRING, null] })
  create(name: string, contactEmail: string | null): Promise<Integrator> {
    return this.db.getRepository(Integrator).save({ name, contactEmail });
  }

  @GenerateSql({ params: [DummyValue.INTEGRATOR_ID] })
  exists(id: string): Promise<boolean> {
    return this.db.getRepository(Integrator).existsBy({ id });
  }

  /** Grants the company to the integrator; granting twice keeps the first grant, which is returned. */
  @GenerateSql({ params: [DummyValue.INTEGRATOR_ID, DummyValue.COMPANY_ID] })
  async grant(integratorId: string, companyId: string): Promise<CompanyGrant> {
    const grants = this.db.getRepository(CompanyGrant);
    await grants.createQueryBuilder().insert().values({ integratorId, companyId }).orIgnore().execute();
    return grants.findOneByOrFail({ integratorId, companyId });
  }
}
