import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { CounterpartRegistry } from '../counterpart-registry.port.js';
import type { CounterpartSearchResultDto } from '../counterpart.dto.js';
import { RegistryCompany } from '../registry-company.entity.js';

/** Development registry: answers from the known Italian companies kept in the database (`registry_companies`). */
@Injectable()
export class DatabaseCounterpartRegistry implements CounterpartRegistry {
  constructor(@InjectRepository(RegistryCompany) private readonly registry: Repository<RegistryCompany>) {}

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
