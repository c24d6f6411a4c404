import { Injectable } from '@nestjs/common';
import type { CounterpartRegistry } from '../counterpart-registry.port.js';
import type { CounterpartSearchResultDto } from '../counterpart.dto.js';
import { RegistryCompaniesRepository } from './registry-companies.repository.js';

/** Development registry: answers from the known Italian companies kept in the database (`registry_companies`). */
@Injectable()
export class DatabaseCounterpartRegistry implements CounterpartRegistry {
  constructor(private readonly registry: RegistryCompaniesRepository) {}

  async findByVatNumber(vatNumber: string): Promise<CounterpartSearchResultDto | null> {
    const row = await this.registry.findByVatNumber(vatNumber);
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
