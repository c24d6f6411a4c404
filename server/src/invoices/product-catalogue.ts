import type { EntityManager } from 'typeorm';
import type { Money } from '../common/money/money.js';

/** A product as a JSON invoice line takes its defaults from it, in the API's form. */
export interface CatalogueProduct {
  code: string;
  description: string;
  unit_price: Money;
  unit_of_measure: string | null;
  vat_percentage: string;
  tax_exemption: string | null;
}

/**
 * The company's products as invoices read them: the port through which invoices/ reaches products/ (ProductsModule
 * provides it), so that products/, which takes its vocabulary (the Natura codes) from the FatturaPA model, stands above
 * invoices/ and no import goes back down.
 */
export abstract class ProductCatalogue {
  /** The company's products among `ids` (uuids); another company's product and an unknown id are both absent. */
  abstract products(manager: EntityManager, companyId: string, ids: readonly string[]): Promise<Map<string, CatalogueProduct>>;
}
