import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { CounterpartSearchResultDto } from './counterpart.dto.js';
import { RegistryCompany } from './registry-company.entity.js';

/** The port to a third-party source of company data, looked up by VAT number. */
export abstract class CounterpartRegistry {
  abstract findByVatNumber(vatNumber: string): Promise<CounterpartSearchResultDto | null>;
}

/** Development provider: answers from the registry of known Italian companies kept in the database. */
@Injectable()
export class DatabaseCounterpartRegistry extends CounterpartRegistry {
  constructor(@InjectRepository(RegistryCompany) private readonly registry: Repository<RegistryCompany>) {
    super();
  }

  async findByVatNumber(vatNumber: string): Promise<CounterpartSearchResultDto | null> {
    const row = await this.registry.findOne({ where: { vatNumber } });
    if (!row) return null;
    return {
      address: row.address,
      city: row.city,
      company_name: row.companyName,
      country: row.country,
      postal_code: row.postalCode,
      province_code: row.provinceCode,
      tax_number: row.taxNumber,
      vat_number: row.vatNumber,
    };
  }
}
