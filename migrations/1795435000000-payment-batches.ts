import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment batches: the bulk payment requests of a company, each offered as a SEPA credit-transfer file (pain.001).
 * A batch pays from one of the company's accounts (its IBAN and the debtor's name are kept as the file carries them,
 * so the file stays the same whatever happens to the account later); each payment is one credit transfer, and may
 * name the flows it pays. Links to flows go with the flow (a deleted flow leaves the payment, without the link).
 * Only DRAFT exists today: Flusso writes the file, the company takes it to its bank.
 */
export class PaymentBatches1795435000000 implements MigrationInterface {
  name = 'PaymentBatches1795435000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE payment_batches (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        account_id uuid NOT NULL,
        status text NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT')),
        message_id text NOT NULL,
        requested_execution_date date NOT NULL,
        debtor_name text NOT NULL,
        debtor_iban text NOT NULL,
        debtor_bic text,
        payment_count integer NOT NULL CHECK (payment_count > 0),
        control_sum numeric NOT NULL CHECK (control_sum > 0),
        currency char(3) NOT NULL CHECK (currency = 'EUR'),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (company_id, id),
        UNIQUE (company_id, message_id),
        FOREIGN KEY (company_id, account_id) REFERENCES accounts (company_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX payment_batches_company_created ON payment_batches (company_id, created_at, id)`);
    await db.query(`CREATE INDEX payment_batches_company_execution ON payment_batches (company_id, requested_execution_date, id)`);
    await db.query(`CREATE INDEX payment_batches_account ON payment_batches (company_id, account_id)`);

    await db.query(`
      CREATE TABLE payment_batch_payments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL,
        batch_id uuid NOT NULL,
        position integer NOT NULL CHECK (position >= 0),
        end_to_end_id text NOT NULL,
        payee_name text NOT NULL,
        iban text NOT NULL,
        amount numeric NOT NULL CHECK (amount > 0),
        currency char(3) NOT NULL CHECK (currency = 'EUR'),
        remittance_information text,
        UNIQUE (company_id, id),
        UNIQUE (batch_id, position),
        UNIQUE (batch_id, end_to_end_id),
        FOREIGN KEY (company_id, batch_id) REFERENCES payment_batches (company_id, id) ON DELETE CASCADE
      )`);

    await db.query(`
      CREATE TABLE payment_batch_payment_flows (
        company_id uuid NOT NULL,
        payment_id uuid NOT NULL,
        flow_id uuid NOT NULL,
        position integer NOT NULL,
        PRIMARY KEY (payment_id, flow_id),
        FOREIGN KEY (company_id, payment_id) REFERENCES payment_batch_payments (company_id, id) ON DELETE CASCADE,
        FOREIGN KEY (company_id, flow_id) REFERENCES flows (company_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX payment_batch_payment_flows_flow ON payment_batch_payment_flows (flow_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE payment_batch_payment_flows`);
    await db.query(`DROP TABLE payment_batch_payments`);
    await db.query(`DROP TABLE payment_batches`);
  }
}
