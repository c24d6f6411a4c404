import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ProductCatalogue, type CatalogueProduct } from '../invoices/product-catalogue.js';
import { presentProduct } from './product.presenter.js';
import { ProductsRepository } from './products.repository.js';

/** The company's products as JSON invoice lines take their defaults from them (invoices/product-defaults.ts). */
@Injectable()
export class InvoiceProductCatalogue extends ProductCatalogue {
  constructor(private readonly repository: ProductsRepository) {
    super();
  }

  async products(manager: EntityManager, companyId: string, ids: readonly string[]): Promise<Map<string, CatalogueProduct>> {
    const rows = await this.repository.ofCompany(manager, companyId, ids);
    return new Map(rows.map((product) => [product.id, presentProduct(product)]));
  }
}
