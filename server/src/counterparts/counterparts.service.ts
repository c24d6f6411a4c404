import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { ApiError } from '../common/errors/api-error.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { CounterpartRegistry } from './counterpart-registry.js';
import type { CounterpartDto, CounterpartSearchResultDto } from './counterpart.dto.js';
import { Counterpart } from './counterpart.entity.js';

export const counterpartList = defineList({
  alias: 'cp',
  filters: {
    vat_number: { column: 'cp.vatNumber', type: 'string', nullable: true },
    tax_number: { column: 'cp.taxNumber', type: 'string', nullable: true },
    company_name: { column: 'cp.companyName', type: 'string', nullable: true },
  },
  sorts: { company_name: { column: 'cp.companyName', type: 'string', nullable: true } },
  defaultSort: 'company_name',
});

export function presentCounterpart(counterpart: Counterpart): CounterpartDto {
  return {
    id: counterpart.id,
    company_name: counterpart.companyName,
    address: counterpart.address,
    city: counterpart.city,
    postal_code: counterpart.postalCode,
    province_code: counterpart.provinceCode,
    country: counterpart.country,
    tax_number: counterpart.taxNumber,
    vat_number: counterpart.vatNumber,
    destination_code: counterpart.destinationCode,
  };
}

/**
 * A VAT number as integrators write it ("IT 01234567890", "01234567890") in the registry's form: country prefix, no
 * spaces. Eleven digits alone are an Italian partita IVA.
 */
export function normalizeVatNumber(raw: string): string | null {
  const compact = raw.replace(/[\s.-]/g, '').toUpperCase();
  if (/^\d{11}$/.test(compact)) return `IT${compact}`;
  return /^[A-Z]{2}[0-9A-Z]{2,13}$/.test(compact) ? compact : null;
}

@Injectable()
export class CounterpartsService {
  private readonly logger = new Logger(CounterpartsService.name);

  constructor(
    @InjectRepository(Counterpart) private readonly counterparts: Repository<Counterpart>,
    private readonly registry: CounterpartRegistry,
  ) {}

  async list(companyId: string, params: QueryParams): Promise<Page<CounterpartDto>> {
    const query = parseListQuery(params, counterpartList);
    const base = this.counterparts.createQueryBuilder('cp').where('cp.companyId = :companyId', { companyId });
    const { rows, cursor } = await fetchPage(base, counterpartList, query);
    return page(rows.map(presentCounterpart), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, params: QueryParams): Promise<CounterpartDto> {
    rejectUnknownParams(params, []);
    return presentCounterpart(await findOwned(this.counterparts, companyId, id, 'Counterpart'));
  }

  async search(params: QueryParams): Promise<CounterpartSearchResultDto> {
    rejectUnknownParams(params, ['vat_number']);
    const raw = params.vat_number;
    if (raw === undefined || raw === '') throw ApiError.badQuery('vat_number', 'The query parameter vat_number is required.', 'bad_request');
    if (typeof raw !== 'string') throw ApiError.badQuery('vat_number', 'The parameter vat_number must be given once.');
    const vatNumber = normalizeVatNumber(raw);
    if (!vatNumber) {
      throw ApiError.badQuery('vat_number', `"${raw.slice(0, 40)}" is not a VAT number (e.g. IT01234567890).`);
    }
    let found: CounterpartSearchResultDto | null;
    try {
      found = await this.registry.findByVatNumber(vatNumber);
    } catch (error) {
      // The request was valid; the outside registry failed to answer it.
      this.logger.warn(`counterpart registry failed: ${(error as Error).message}`);
      throw ApiError.of('request_failed', 'The company registry could not be queried; try again later.');
    }
    if (!found) throw ApiError.of('not_found', `No company with VAT number ${vatNumber} is known.`, '/query/vat_number');
    return found;
  }
}
