import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, dateColumn, moneyColumn, UpdatedAt } from '../common/database/timestamps.js';

/**
 * What a batch is: DRAFT once created, its file ready to take to the bank. Flusso does not send batches to banks, so
 * no other status exists yet; a flow a batch pays becomes PAID when the bank's debit is reconciled with it.
 */
export const PAYMENT_BATCH_STATUSES = ['DRAFT'] as const;
export type PaymentBatchStatus = (typeof PAYMENT_BATCH_STATUSES)[number];

/** A bulk payment request: SEPA credit transfers from one account of the company, executed on one day. */
@Entity('payment_batches')
export class PaymentBatch {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('uuid')
  accountId: string;

  @Column('text')
  status: PaymentBatchStatus;

  /** The file's MsgId (and, with a suffix, its PmtInfId): unique within the company. */
  @Column('text')
  messageId: string;

  @Column(dateColumn)
  requestedExecutionDate: string;

  /** The debtor as the file names it: the company's name in the SEPA character set, the account's IBAN, its bank's BIC. */
  @Column('text')
  debtorName: string;

  @Column('text')
  debtorIban: string;

  @Column('text', { nullable: true })
  debtorBic: string | null;

  @Column('integer')
  paymentCount: number;

  /** The sum of the payments' amounts (the file's CtrlSum). */
  @Column(moneyColumn)
  controlSum: string;

  @Column('char', { length: 3 })
  currency: string;

  @CreatedAt()
  createdAt: Date;

  @UpdatedAt()
  updatedAt: Date;
}

/** One credit transfer of a batch. */
@Entity('payment_batch_payments')
export class PaymentBatchPayment {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  companyId: string;

  @Column('uuid')
  batchId: string;

  /** Order of the payment in the request and in the file, from 0. */
  @Column('integer')
  position: number;

  @Column('text')
  endToEndId: string;

  @Column('text')
  payeeName: string;

  @Column('text')
  iban: string;

  @Column(moneyColumn)
  amount: string;

  @Column('char', { length: 3 })
  currency: string;

  @Column('text', { nullable: true })
  remittanceInformation: string | null;
}

/** A flow that a payment pays (a payment may pay several instalments of one supplier at once). */
@Entity('payment_batch_payment_flows')
export class PaymentBatchPaymentFlow {
  @PrimaryColumn('uuid')
  paymentId: string;

  @PrimaryColumn('uuid')
  flowId: string;

  @Column('uuid')
  companyId: string;

  /** Order of the flow id in the request. */
  @Column('integer')
  position: number;
}
