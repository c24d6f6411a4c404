import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, QueryFailedError, type Repository } from 'typeorm';
import { findOwned } from '../common/database/find-owned.js';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';
import { fetchPage } from '../common/listing/list-page.js';
import { parseListQuery, type ListQuery } from '../common/listing/list-query.js';
import { defineList } from '../common/listing/list-spec.js';
import { Product } from './product.entity.js';

/** The snapshots' example of a product being written. */
const EXAMPLE_NEW_PRODUCT = {
  companyId: DummyValue.COMPANY_ID,
  code: DummyValue.STRING,
  description: DummyValue.STRING,
  unitPrice: '10.00',
  currency: 'EUR',
  unitOfMeasure: null,
  vatPercentage: '22.00',
  taxExemption: null,
} as const;

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

/** True when a write failed because another product of the company has the code (the unique index). */
export function isDuplicateCode(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { constraint?: string }).constraint === 'products_company_code';
}

/** The SQL of the company's products and services. */
@Injectable()
export class ProductsRepository {
  private readonly products: Repository<Product>;

  constructor(@InjectDataSource() db: DataSource) {
    this.products = db.getRepository(Product);
  }

  /** One page of the company's products. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, parseListQuery({}, productList)] })
  page(companyId: string, query: ListQuery): Promise<{ rows: Product[]; cursor: string | null }> {
    const base = this.products.createQueryBuilder('p').where('p.companyId = :companyId', { companyId });
    return fetchPage(base, productList, query);
  }

  /** The company's product: 404, or 403 when it is another company's. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, DummyValue.UUID] })
  findOwned(companyId: string, id: string): Promise<Product> {
    return findOwned(this.products, companyId, id, 'Product');
  }

  /** The company's products among `ids`; another company's product and an unknown id are both simply absent. */
  @GenerateSql({ params: [DummyValue.MANAGER, DummyValue.COMPANY_ID, [DummyValue.UUID]] })
  ofCompany(manager: EntityManager, companyId: string, ids: readonly string[]): Promise<Product[]> {
    if (!ids.length) return Promise.resolve([]);
    return manager.getRepository(Product).findBy({ companyId, id: In([...new Set(ids)]) });
  }

  /** The id of the company's product with the code, if any. */
  @GenerateSql({ params: [DummyValue.COMPANY_ID, DummyValue.STRING] })
  async idWithCode(companyId: string, code: string): Promise<string | null> {
    const existing = await this.products.findOne({ where: { companyId, code }, select: { id: true } });
    return existing?.id ?? null;
  }

  /** Inserts a product and answers it as stored. */
  @GenerateSql({
    params: [EXAMPLE_NEW_PRODUCT],
  })
  insert(product: Omit<Product, 'id' | 'createdAt' | 'updatedAt'>): Promise<Product> {
    return this.products.save(this.products.create(product));
  }

  /**
   * Changes a product under its row lock, read again after the lock, so that a concurrent update of other members is
   * not undone: `change` gets the row as it now is (null when it was deleted meanwhile) and answers what to write.
   */
  @GenerateSql({
    params: [
      DummyValue.UUID,
      (current: Product | null) =>
        ({
          ...EXAMPLE_NEW_PRODUCT,
          ...current,
          id: DummyValue.UUID,
        }) as Product,
    ],
  })
  update(id: string, change: (current: Product | null) => Product): Promise<Product> {
    return this.products.manager.transaction(async (manager) => {
      const current = await manager.getRepository(Product).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      return manager.getRepository(Product).save(change(current));
    });
  }

  /** Deletes a product; false when a concurrent delete got there first. */
  @GenerateSql({ params: [DummyValue.UUID] })
  async delete(id: string): Promise<boolean> {
    const { affected } = await this.products.delete({ id });
    return Boolean(affected);
  }
}
