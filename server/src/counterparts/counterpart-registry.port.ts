import type { CounterpartSearchResultDto } from './counterpart.dto.js';

/**
 * The port to a third-party source of company data, looked up by VAT number (null: no such company). Drivers:
 * `drivers/database.driver.ts`, the development registry kept in the database.
 */
export interface CounterpartRegistry {
  findByVatNumber(vatNumber: string): Promise<CounterpartSearchResultDto | null>;
}

/** The DI token of the counterpart registry. */
export const COUNTERPART_REGISTRY = Symbol('COUNTERPART_REGISTRY');
