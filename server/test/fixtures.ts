import type { DataSource, DeepPartial, ObjectLiteral } from 'typeorm';
import { Account } from '../src/accounts/account.entity.js';
import { Category } from '../src/categories/category.entity.js';
import { Counterpart } from '../src/counterparts/counterpart.entity.js';
import { Document } from '../src/documents/document.entity.js';
import { Flow } from '../src/flows/flow.entity.js';
import { Product } from '../src/products/product.entity.js';
import { Reconciliation } from '../src/transactions/reconciliation.entity.js';
import { Transaction } from '../src/transactions/transaction.entity.js';

/** Small factories for rows a test needs, each with plausible defaults that a test overrides where it matters. */
export class Fixtures {
  constructor(
    private readonly db: DataSource,
    readonly companyId: string,
  ) {}

  private save<E extends ObjectLiteral>(entity: new () => E, values: DeepPartial<NoInfer<E>>): Promise<E> {
    const repository = this.db.getRepository(entity);
    return repository.save(repository.create({ companyId: this.companyId, ...values } as DeepPartial<E>));
  }

  account(values: Partial<Account> = {}): Promise<Account> {
    return this.save(Account, {
      nickname: 'Conto corrente',
      currency: 'EUR',
      currentBalance: '15230.40',
      availableBalance: '20230.40',
      creditLimit: '5000.00',
      ...values,
    });
  }

  category(values: Partial<Category> = {}): Promise<Category> {
    return this.save(Category, { name: 'Utenze', parentId: null, ...values });
  }

  product(values: Partial<Product> = {}): Promise<Product> {
    return this.save(Product, {
      code: 'PIZZA-MARG',
      description: 'Pizza margherita',
      unitPrice: '8.50',
      currency: 'EUR',
      unitOfMeasure: 'PZ',
      vatPercentage: '10.00',
      taxExemption: null,
      ...values,
    });
  }

  counterpart(values: Partial<Counterpart> = {}): Promise<Counterpart> {
    return this.save(Counterpart, {
      companyName: 'Bianchi Impianti S.r.l.',
      vatNumber: 'IT01234567890',
      taxNumber: '01234567890',
      address: 'Via Roma 12',
      city: 'Milano',
      postalCode: '20121',
      provinceCode: 'MI',
      country: 'IT',
      destinationCode: 'M5UXCR1',
      ...values,
    });
  }

  document(values: Partial<Document> = {}): Promise<Document> {
    return this.save(Document, {
      number: 'FV-2026/0001',
      type: 'INVOICE',
      status: 'DELIVERED',
      format: 'FPR12',
      isEInvoice: true,
      direction: 'ISSUED',
      currency: 'EUR',
      grossAmount: '1220.00',
      vatAmount: '220.00',
      creationDate: '2026-03-01',
      ...values,
    });
  }

  flow(document: Document, values: Partial<Flow> = {}): Promise<Flow> {
    return this.save(Flow, {
      documentId: document.id,
      amount: document.grossAmount,
      currency: document.currency,
      paymentStatus: 'TO_PAY',
      paymentMethod: 'TRANSFER',
      expectedPaymentDate: '2026-03-31',
      paymentDate: null,
      ...values,
    });
  }

  transaction(account: Account, values: Partial<Transaction> = {}): Promise<Transaction> {
    return this.save(Transaction, {
      accountId: account.id,
      type: 'CREDIT',
      amount: '1220.00',
      currency: 'EUR',
      date: '2026-03-30',
      valueDate: '2026-03-30',
      bookingDateTime: new Date('2026-03-30T10:15:00Z'),
      description: 'BONIFICO SEPA DA BIANCHI IMPIANTI SRL RIF. FV-2026/0001',
      cleanDescription: 'Bonifico da Bianchi Impianti',
      counterpartName: 'Bianchi Impianti S.r.l.',
      ...values,
    });
  }

  /**
   * A link allocating `amount` (by default what remains of the flow or the transaction, whichever is less), with the
   * flow's paid_amount kept in step. The flow's status is the test's to set.
   */
  async reconciliation(flow: Flow, transaction: Transaction, values: Partial<Reconciliation> = {}): Promise<Reconciliation> {
    const [left] = await this.db.query(
      `SELECT least(f.amount - f.paid_amount, t.amount - coalesce((SELECT sum(r.amount) FROM reconciliations r WHERE r.transaction_id = t.id), 0))::text AS amount
         FROM flows f, transactions t WHERE f.id = $1 AND t.id = $2`,
      [flow.id, transaction.id],
    );
    const saved = await this.save(Reconciliation, {
      flowId: flow.id,
      transactionId: transaction.id,
      amount: left.amount,
      currency: transaction.currency,
      ...values,
    });
    await this.db.query('UPDATE flows SET paid_amount = paid_amount + $2 WHERE id = $1', [flow.id, saved.amount]);
    return saved;
  }
}
