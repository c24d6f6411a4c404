import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../../common/database/generate-sql.js';
import { RegistryCompany } from '../registry-company.entity.js';

/** The SQL of the development registry of known Italian companies (`registry_companies`). */
@Injectable()
export class RegistryCompaniesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @GenerateSql({ params: ['IT01234567890'] })
  findByVatNumber(vatNumber: string): Promise<RegistryCompany | null> {
    return this.db.getRepository(RegistryCompany).findOne({ where: { vatNumber } });
  }
}
