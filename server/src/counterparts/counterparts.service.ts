import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { errorItem, type ErrorItem } from '../common/errors/api-error.js';
import { isValidCodiceFiscale, isValidPartitaIva, isValidVatNumber, normalizeVatNumber } from '../common/validation/italian-identifiers.js';
import { CounterpartRegistry } from './counterpart-registry.js';
import type { CounterpartDto, CounterpartSearchResultDto, CreateCounterpartDto, UpdateCounterpartDto } from './counterpart.dto.js';
import type { Counterpart } from './counterpart.entity.js';
import { presentCounterpart } from './counterpart.presenter.js';
import { counterpartList, CounterpartsRepository } from './counterparts.repository.js';

type Changes = Partial<CreateCounterpartDto>;

/** The members present in the payload, over the counterpart's current ones; identifiers in their stored form. */
function applyChanges(counterpart: Counterpart, changes: Changes): Counterpart {
  const upper = (value: string | null | undefined) => (value === null || value === undefined ? value : value.replace(/[\s.-]/g, '').toUpperCase());
  const set = <K extends keyof Counterpart>(key: K, value: Counterpart[K] | undefined) => {
    if (value !== undefined) counterpart[key] = value;
  };
  set('companyName', changes.company_name);
  set('address', changes.address);
  set('city', changes.city);
  set('postalCode', changes.postal_code);
  set('provinceCode', changes.province_code);
  set('country', changes.country);
  set('taxNumber', upper(changes.tax_number));
  set('destinationCode', changes.destination_code?.toUpperCase() ?? changes.destination_code);
  set('pecAddress', changes.pec_address);
  if (changes.vat_number !== undefined) {
    // Unparseable VAT numbers are kept as sent so that checked() can name them.
    counterpart.vatNumber = changes.vat_number === null ? null : (normalizeVatNumber(changes.vat_number, counterpart.country ?? 'IT') ?? changes.vat_number);
  }
  return counterpart;
}

/**
 * The counterpart's own rules, for the members the payload sets (and, when it sets the country, the members whose
 * rules depend on it): an Italian VAT number has a valid check digit; an Italian counterpart's tax number is a codice
 * fiscale (16 characters, valid check character) or a company's 11-digit number (valid check digit), and its postal
 * code has five digits. Every broken rule is reported, each at its member.
 */
function checked(counterpart: Counterpart, changes: Changes): Counterpart {
  const problems: ErrorItem[] = [];
  const refuse = (member: string, detail: string) => problems.push(errorItem('unprocessable_entity', detail, `/${member}`));
  const italian = counterpart.country === 'IT';
  const countryChanged = changes.country !== undefined;
  const vatNumber = changes.vat_number !== undefined ? counterpart.vatNumber : null;
  const taxNumber = changes.tax_number !== undefined || countryChanged ? counterpart.taxNumber : null;
  const postalCode = changes.postal_code !== undefined || countryChanged ? counterpart.postalCode : null;
  if (vatNumber !== null && (!/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(vatNumber) || !isValidVatNumber(vatNumber))) {
    refuse(
      'vat_number',
      vatNumber.startsWith('IT')
        ? `${vatNumber} is not a valid Italian VAT number: a partita IVA has 11 digits and a correct check digit.`
        : `vat_number must be a VAT number such as IT01234567890 (a country prefix and 2 to 13 letters or digits).`,
    );
  }
  if (taxNumber !== null) {
    if (italian && /^\d{11}$/.test(taxNumber)) {
      if (!isValidPartitaIva(taxNumber)) refuse('tax_number', `${taxNumber} is not a valid tax number: the check digit of an 11-digit one is wrong.`);
    } else if (italian && taxNumber.length === 16) {
      if (!isValidCodiceFiscale(taxNumber)) refuse('tax_number', `${taxNumber} is not a valid codice fiscale: its form or its check character is wrong.`);
    } else if (italian) {
      refuse('tax_number', 'An Italian tax_number is a codice fiscale: 16 characters for a person, 11 digits for a company.');
    } else if (!/^[A-Z0-9]{1,28}$/.test(taxNumber)) {
      refuse('tax_number', 'tax_number must be 1 to 28 letters or digits.');
    }
  }
  if (italian && postalCode !== null && !/^\d{5}$/.test(postalCode)) refuse('postal_code', 'An Italian postal_code (CAP) has five digits.');
  if (problems.length) throw new ApiError(422, problems);
  return counterpart;
}

@Injectable()
export class CounterpartsService {
  private readonly logger = new Logger(CounterpartsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly counterparts: CounterpartsRepository,
    private readonly registry: CounterpartRegistry,
  ) {}

  async list(companyId: string, params: QueryParams): Promise<Page<CounterpartDto>> {
    const query = parseListQuery(params, counterpartList);
    const { rows, cursor } = await this.counterparts.page(companyId, query);
    return page(rows.map(presentCounterpart), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, params: QueryParams): Promise<CounterpartDto> {
    rejectUnknownParams(params, []);
    return presentCounterpart(await this.counterparts.findOwned(companyId, id));
  }

  async create(companyId: string, body: CreateCounterpartDto): Promise<CounterpartDto> {
    const counterpart = checked(applyChanges(this.counterparts.blank(companyId), body), body);
    await this.refuseDuplicateVatNumber(this.db.manager, companyId, counterpart.vatNumber, null);
    return presentCounterpart(await this.withUniqueVatNumber(counterpart, () => this.counterparts.save(this.db.manager, counterpart)));
  }

  async update(companyId: string, id: string, changes: UpdateCounterpartDto): Promise<CounterpartDto> {
    if (Object.values(changes).every((value) => value === undefined)) {
      throw ApiError.of('bad_request', 'The body names no member to update.', '');
    }
    const found = await this.counterparts.findOwned(companyId, id);
    const saved = await this.withUniqueVatNumber(found, () =>
      this.db.transaction(async (manager) => {
        const current = await this.counterparts.lockForUpdate(manager, found.id);
        const counterpart = checked(applyChanges(current, changes), changes);
        await this.refuseDuplicateVatNumber(manager, companyId, counterpart.vatNumber, counterpart.id);
        return this.counterparts.save(manager, counterpart);
      }),
    );
    return presentCounterpart(saved);
  }

  /** One counterpart per VAT number in a company: 409 naming the one that has it. */
  private async refuseDuplicateVatNumber(manager: EntityManager, companyId: string, vatNumber: string | null, self: string | null): Promise<void> {
    if (vatNumber === null) return;
    const existing = await this.counterparts.idWithVatNumber(manager, companyId, vatNumber);
    if (existing && existing !== self) {
      throw ApiError.of('counterpart_exists', `Counterpart ${existing} of this company already has the VAT number ${vatNumber}.`, '/vat_number');
    }
  }

  /** Runs a write; a VAT number taken meanwhile by a concurrent request (the unique index refuses it) is the same 409. */
  private async withUniqueVatNumber<T>(counterpart: Counterpart, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof QueryFailedError) || (error.driverError as { constraint?: string }).constraint !== 'counterparts_company_vat_number') throw error;
      await this.refuseDuplicateVatNumber(this.db.manager, counterpart.companyId, counterpart.vatNumber, counterpart.id ?? null);
      throw error;
    }
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
