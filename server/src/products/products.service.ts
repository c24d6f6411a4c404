import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, QueryFailedError, Repository } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { ApiError } from '../common/errors/api-error.js';
import { fetchPage, page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { money, type Money } from '../common/money/money.js';
import type { CreateProductDto, ProductDto, UpdateProductDto } from './product.dto.js';
import { Product } from './product.entity.js';

export const productList = defineList({
  alias: 'p',
  filters: {
    id: { column: 'p.id', type: 'uuid' },
    code: { column: 'p.code', type: 'string' },
    description: { column: 'p.description', type: 'string' },
    tax_exemption: { column: 'p.taxExemption', type: 'string', nullable: true },
  },
  sorts: { code: { column: 'p.code', type: 'string' }, created_at: { column: 'p.createdAt', type: 'datetime' } },
  defaultSort: 'code',
});

/** Two decimals, as FatturaPA writes AliquotaIVA ("22.00"). */
const percentage = (value: string): string => Number(value).toFixed(2);

export function presentProduct(product: Product): ProductDto {
  return {
    id: product.id,
    code: product.code,
    description: product.description,
    unit_price: money(product.unitPrice, product.currency) as Money,
    unit_of_measure: product.unitOfMeasure,
    vat_percentage: percentage(product.vatPercentage),
    tax_exemption: product.taxExemption,
    created_at: product.createdAt.toISOString(),
    updated_at: product.updatedAt.toISOString(),
  };
}

/**
 * The company's products among `ids` (uuids), as presented: what JSON invoice lines take their defaults from. Another
 * company's product and an unknown id are both simply absent.
 */
export async function companyProducts(manager: EntityManager, companyId: string, ids: readonly string[]): Promise<Map<string, ProductDto>> {
  if (!ids.length) return new Map();
  const rows = await manager.getRepository(Product).findBy({ companyId, id: In([...new Set(ids)]) });
  return new Map(rows.map((product) => [product.id, presentProduct(product)]));
}

/** The members present in the payload over the product's current ones. */
function applyChanges(product: Product, changes: UpdateProductDto): Product {
  if (changes.code !== undefined) product.code = changes.code;
  if (changes.description !== undefined) product.description = changes.description;
  if (changes.unit_price !== undefined) {
    product.unitPrice = changes.unit_price.amount;
    product.currency = changes.unit_price.currency;
  }
  if (changes.unit_of_measure !== undefined) product.unitOfMeasure = changes.unit_of_measure;
  if (changes.vat_percentage !== undefined) product.vatPercentage = percentage(changes.vat_percentage);
  if (changes.tax_exemption !== undefined) product.taxExemption = changes.tax_exemption;
  return product;
}

/**
 * A 0% rate needs a Natura code saying why no VAT is charged, and any other rate refuses one (as FatturaPA's
 * AliquotaIVA and Natura on an invoice line).
 */
function checked(product: Product): Product {
  const zero = Number(product.vatPercentage) === 0;
  if (zero && product.taxExemption === null) {
    throw ApiError.of(
      'unprocessable_entity',
      'tax_exemption is required when vat_percentage is 0: give the Natura code that says why no VAT is charged.',
      '/tax_exemption',
    );
  }
  if (!zero && product.taxExemption !== null) {
    throw ApiError.of(
      'unprocessable_entity',
      `tax_exemption ${product.taxExemption} is only allowed with a vat_percentage of 0 (this one is ${percentage(product.vatPercentage)}); send null to clear it.`,
      '/tax_exemption',
    );
  }
  return product;
}

/**
 * The company's products and services: code, description, unit price, unit of measure, VAT rate and the Natura code
 * of a 0% rate. A JSON invoice line may name a product for its defaults (companyProducts()); nothing keeps a reference
 * to a product, so deleting one changes no document.
 */
@Injectable()
export class ProductsService {
  constructor(@InjectRepository(Product) private readonly products: Repository<Product>) {}

  async list(companyId: string, params: QueryParams): Promise<Page<ProductDto>> {
    const query = parseListQuery(params, productList);
    const base = this.products.createQueryBuilder('p').where('p.companyId = :companyId', { companyId });
    const { rows, cursor } = await fetchPage(base, productList, query);
    return page(rows.map(presentProduct), cursor, query.pageSize);
  }

  async get(companyId: string, id: string): Promise<ProductDto> {
    return presentProduct(await findOwned(this.products, companyId, id, 'Product'));
  }

  async create(companyId: string, body: CreateProductDto): Promise<ProductDto> {
    const blank = this.products.create({ companyId, unitOfMeasure: null, taxExemption: null });
    const product = checked(applyChanges(blank, body));
    return presentProduct(await this.withUniqueCode(companyId, product.code, () => this.products.save(product)));
  }

  async update(companyId: string, id: string, changes: UpdateProductDto): Promise<ProductDto> {
    if (Object.values(changes).every((value) => value === undefined)) {
      throw ApiError.of('bad_request', 'The body names no member to update.', '');
    }
    const found = await findOwned(this.products, companyId, id, 'Product');
    const saved = await this.withUniqueCode(companyId, changes.code ?? found.code, () =>
      this.products.manager.transaction(async (manager) => {
        // Locked and read again, so that a concurrent update of other members is not undone.
        const current = await manager.getRepository(Product).findOne({ where: { id: found.id }, lock: { mode: 'pessimistic_write' } });
        if (!current) throw ApiError.notFound('Product');
        return manager.getRepository(Product).save(checked(applyChanges(current, changes)));
      }),
    );
    return presentProduct(saved);
  }

  async delete(companyId: string, id: string): Promise<void> {
    const product = await findOwned(this.products, companyId, id, 'Product');
    const { affected } = await this.products.delete({ id: product.id });
    // A concurrent delete got there first.
    if (!affected) throw ApiError.notFound('Product');
  }

  /** Runs a write; a code another product of the company has (the unique index refuses it) is a 409 naming that one. */
  private async withUniqueCode<T>(companyId: string, code: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof QueryFailedError) || (error.driverError as { constraint?: string }).constraint !== 'products_company_code') throw error;
      const existing = await this.products.findOne({ where: { companyId, code }, select: { id: true } });
      throw ApiError.of('product_exists', `${existing ? `Product ${existing.id}` : 'Another product'} of this company already has the code ${code}.`, '/code');
    }
  }
}
