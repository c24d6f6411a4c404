import { money, type Money } from '../common/money/money.js';
import type { ProductDto } from './product.dto.js';
import type { Product } from './product.entity.js';
import { instant } from '../common/time/instant.js';

/** Two decimals, as FatturaPA writes AliquotaIVA ("22.00"). */
export const percentage = (value: string): string => Number(value).toFixed(2);

export function presentProduct(product: Product): ProductDto {
  return {
    id: product.id,
    code: product.code,
    description: product.description,
    unit_price: money(product.unitPrice, product.currency) as Money,
    unit_of_measure: product.unitOfMeasure,
    vat_percentage: percentage(product.vatPercentage),
    tax_exemption: product.taxExemption,
    created_at: instant(product.createdAt),
    updated_at: instant(product.updatedAt),
  };
}
