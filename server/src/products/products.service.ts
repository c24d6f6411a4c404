import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, type QueryParams } from '../common/listing/list-query.js';
import type { CreateProductDto, ProductDto, UpdateProductDto } from './product.dto.js';
import type { Product } from './product.entity.js';
import { percentage, presentProduct } from './product.presenter.js';
import { isDuplicateCode, productList, ProductsRepository } from './products.repository.js';

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
 * of a 0% rate. A JSON invoice line may name a product for its defaults (through the ProductCatalogue invoices read);
 * nothing keeps a reference to a product, so deleting one changes no document.
 */
@Injectable()
export class ProductsService {
  constructor(private readonly products: ProductsRepository) {}

  async list(companyId: string, params: QueryParams): Promise<Page<ProductDto>> {
    const query = parseListQuery(params, productList);
    const { rows, cursor } = await this.products.page(companyId, query);
    return page(rows.map(presentProduct), cursor, query.pageSize);
  }

  async get(companyId: string, id: string): Promise<ProductDto> {
    return presentProduct(await this.products.findOwned(companyId, id));
  }

  async create(companyId: string, body: CreateProductDto): Promise<ProductDto> {
    const product = checked(applyChanges({ companyId, unitOfMeasure: null, taxExemption: null } as Product, body));
    return presentProduct(await this.withUniqueCode(companyId, product.code, () => this.products.insert(product)));
  }

  async update(companyId: string, id: string, changes: UpdateProductDto): Promise<ProductDto> {
    if (Object.values(changes).every((value) => value === undefined)) {
      throw ApiError.of('bad_request', 'The body names no member to update.', '');
    }
    const found = await this.products.findOwned(companyId, id);
    const saved = await this.withUniqueCode(companyId, changes.code ?? found.code, () =>
      this.products.update(found.id, (current) => {
        if (!current) throw ApiError.notFound('Product');
        return checked(applyChanges(current, changes));
      }),
    );
    return presentProduct(saved);
  }

  async delete(companyId: string, id: string): Promise<void> {
    const product = await this.products.findOwned(companyId, id);
    // A concurrent delete got there first.
    if (!(await this.products.delete(product.id))) throw ApiError.notFound('Product');
  }

  /** Runs a write; a code another product of the company has (the unique index refuses it) is a 409 naming that one. */
  private async withUniqueCode<T>(companyId: string, code: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isDuplicateCode(error)) throw error;
      const existing = await this.products.idWithCode(companyId, code);
      throw ApiError.of('product_exists', `${existing ? `Product ${existing}` : 'Another product'} of this company already has the code ${code}.`, '/code');
    }
  }
}
