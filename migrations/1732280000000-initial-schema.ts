import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The first schema. Every company-owned table carries company_id, and references between them are composite
 * (company_id, id) foreign keys, so the database itself refuses a row that points into another company.
 * Indexes serve each allowed filter and each sort, always led by company_id and ended by id (the keyset tie-breaker).
 */
export class InitialSchema1732280000000 implements MigrationInterface {
  name = 'InitialSchema1732280000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);

    await db.query(`
      CREATE TABLE integrators (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        contact_email text,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        integrator_id uuid NOT NULL REFERENCES integrators(id) ON DELETE CASCADE,
        environment text NOT NULL CHECK (environment IN ('development', 'production')),
        name text NOT NULL,
        lookup text NOT NULL UNIQUE,
        secret_hash text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        revoked_at timestamptz(3)
      )`);
    await db.query(`CREATE INDEX api_keys_integrator ON api_keys (integrator_id, created_at)`);

    await db.query(`
      CREATE TABLE companies (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        vat_number text,
        country char(2) NOT NULL,
        fiscal_regime text NOT NULL CHECK (fiscal_regime ~ '^RF(0[1-9]|1[0-9]|20)$'),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE company_grants (
        integrator_id uuid NOT NULL REFERENCES integrators(id) ON DELETE CASCADE,
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (integrator_id, company_id)
      )`);
    await db.query(`CREATE INDEX company_grants_company ON company_grants (company_id)`);
    await db.query(`
      CREATE TABLE subscriptions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('TRIAL', 'TRIAL_WILL_END', 'TRIAL_WITH_PAYMENT_METHOD', 'ACTIVE',
          'PAST_DUE', 'CANCELED', 'INCOMPLETE')),
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX subscriptions_company ON subscriptions (company_id, created_at)`);

    await db.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        nickname text,
        iban text,
        currency char(3),
        current_balance numeric,
        available_balance numeric,
        credit_limit numeric CHECK (credit_limit >= 0),
        balance_date timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (company_id, id)
      )`);
    await db.query(`CREATE INDEX accounts_company_created ON accounts (company_id, created_at, id)`);

    await db.query(`
      CREATE TABLE categories (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        parent_id uuid,
        name text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (company_id, id),
        FOREIGN KEY (company_id, parent_id) REFERENCES categories (company_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX categories_company_name ON categories (company_id, name, id)`);
    await db.query(`CREATE INDEX categories_company_parent ON categories (company_id, parent_id)`);

    await db.query(`
      CREATE TABLE counterparts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        company_name text,
        address text,
        city text,
        postal_code text,
        province_code text,
        country char(2),
        tax_number text,
        vat_number text,
        destination_code text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (company_id, id)
      )`);
    await db.query(`CREATE INDEX counterparts_company_name ON counterparts (company_id, company_name, id)`);
    await db.query(`CREATE INDEX counterparts_company_vat ON counterparts (company_id, vat_number)`);
    await db.query(`CREATE INDEX counterparts_company_tax ON counterparts (company_id, tax_number)`);
    await db.query(`CREATE INDEX counterparts_name_trgm ON counterparts USING gin (company_name gin_trgm_ops)`);

    await db.query(`
      CREATE TABLE registry_companies (
        vat_number text PRIMARY KEY,
        tax_number text,
        company_name text NOT NULL,
        address text,
        city text,
        postal_code text,
        province_code text,
        country char(2) NOT NULL
      )`);

    await db.query(`
      CREATE TABLE documents (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        number text NOT NULL,
        type text NOT NULL CHECK (type IN ('BILL', 'CREDIT_NOTE', 'DEBIT_NOTE', 'INVOICE', 'OTHER', 'PARCEL',
          'SELF_INVOICE', 'DELIVERY_NOTE', 'QUOTE')),
        status text NOT NULL CHECK (status IN ('DRAFT', 'CREATED', 'SENT', 'DELIVERED', 'NOT_DELIVERED', 'DISCARDED',
          'REFUSED')),
        format text CHECK (format IN ('FPA12', 'FPR12', 'FSM10')),
        is_e_invoice boolean,
        direction text NOT NULL CHECK (direction IN ('ISSUED', 'RECEIVED')),
        currency char(3) NOT NULL,
        gross_amount numeric NOT NULL CHECK (gross_amount >= 0),
        vat_amount numeric NOT NULL CHECK (vat_amount >= 0),
        category_id uuid,
        subcategory_id uuid,
        counterpart_id uuid,
        creation_date date NOT NULL,
        delivery_date timestamptz(3),
        delivery_status text CHECK (delivery_status IN ('RC', 'MC', 'NS', 'NE', 'DT', 'AT')),
        file_name text,
        notes text,
        source_id text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (company_id, id),
        FOREIGN KEY (company_id, category_id) REFERENCES categories (company_id, id) ON DELETE SET NULL (category_id),
        FOREIGN KEY (company_id, subcategory_id) REFERENCES categories (company_id, id)
          ON DELETE SET NULL (subcategory_id),
        FOREIGN KEY (company_id, counterpart_id) REFERENCES counterparts (company_id, id)
          ON DELETE SET NULL (counterpart_id)
      )`);
    await db.query(`CREATE INDEX documents_company_created ON documents (company_id, created_at, id)`);
    await db.query(`CREATE INDEX documents_company_creation_date ON documents (company_id, creation_date, id)`);
    await db.query(`CREATE INDEX documents_company_delivery_date ON documents (company_id, delivery_date, id)`);
    await db.query(`CREATE INDEX documents_company_number ON documents (company_id, number, id)`);
    await db.query(`CREATE INDEX documents_company_status ON documents (company_id, status, created_at, id)`);
    await db.query(`CREATE INDEX documents_company_type ON documents (company_id, type, created_at, id)`);
    await db.query(`CREATE INDEX documents_company_direction ON documents (company_id, direction, created_at, id)`);
    await db.query(`CREATE INDEX documents_company_source ON documents (company_id, source_id)`);
    await db.query(`CREATE INDEX documents_company_counterpart ON documents (company_id, counterpart_id)`);
    await db.query(`CREATE INDEX documents_notes_trgm ON documents USING gin (notes gin_trgm_ops)`);

    await db.query(`
      CREATE TABLE flows (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        document_id uuid NOT NULL,
        amount numeric NOT NULL CHECK (amount >= 0),
        currency char(3) NOT NULL,
        payment_status text NOT NULL CHECK (payment_status IN ('PAID', 'TO_PAY')),
        payment_method text CHECK (payment_method IN ('CARD', 'CASH', 'CHECK', 'DEFERRED', 'TAX_FORM',
          'FISCAL_CREDIT', 'OTHER', 'POSTAL', 'RIBA', 'SDD', 'TRANSFER')),
        expected_payment_date date,
        payment_date date,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (company_id, id),
        FOREIGN KEY (company_id, document_id) REFERENCES documents (company_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX flows_document_created ON flows (company_id, document_id, created_at, id)`);

    await db.query(`
      CREATE TABLE transactions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        account_id uuid NOT NULL,
        type text NOT NULL CHECK (type IN ('CREDIT', 'DEBIT')),
        amount numeric NOT NULL CHECK (amount >= 0),
        currency char(3) NOT NULL,
        booking_date_time timestamptz(3),
        date date NOT NULL,
        value_date date,
        description text,
        clean_description text,
        counterpart_name text,
        category_id uuid,
        subcategory_id uuid,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        UNIQUE (company_id, id),
        FOREIGN KEY (company_id, account_id) REFERENCES accounts (company_id, id) ON DELETE CASCADE,
        FOREIGN KEY (company_id, category_id) REFERENCES categories (company_id, id) ON DELETE SET NULL (category_id),
        FOREIGN KEY (company_id, subcategory_id) REFERENCES categories (company_id, id)
          ON DELETE SET NULL (subcategory_id)
      )`);
    await db.query(`CREATE INDEX transactions_company_date ON transactions (company_id, date, id)`);
    await db.query(`CREATE INDEX transactions_company_created ON transactions (company_id, created_at, id)`);
    await db.query(`CREATE INDEX transactions_company_amount ON transactions (company_id, amount, id)`);
    await db.query(`CREATE INDEX transactions_company_booking ON transactions (company_id, booking_date_time, id)`);
    await db.query(`CREATE INDEX transactions_company_account_date ON transactions (company_id, account_id, date, id)`);
    await db.query(`CREATE INDEX transactions_company_type_date ON transactions (company_id, type, date, id)`);
    await db.query(`CREATE INDEX transactions_clean_description_trgm ON transactions USING gin (clean_description gin_trgm_ops)`);
    await db.query(`CREATE INDEX transactions_counterpart_name_trgm ON transactions USING gin (counterpart_name gin_trgm_ops)`);

    await db.query(`
      CREATE TABLE reconciliations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        flow_id uuid NOT NULL,
        transaction_id uuid NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT reconciliations_flow_transaction UNIQUE (flow_id, transaction_id),
        FOREIGN KEY (company_id, flow_id) REFERENCES flows (company_id, id) ON DELETE CASCADE,
        FOREIGN KEY (company_id, transaction_id) REFERENCES transactions (company_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX reconciliations_company_created ON reconciliations (company_id, created_at, id)`);
    await db.query(`CREATE INDEX reconciliations_transaction ON reconciliations (transaction_id)`);

    await db.query(`
      CREATE TABLE events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        type text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        relayed_at timestamptz(3)
      )`);
    await db.query(`CREATE INDEX events_unrelayed ON events (created_at, id) WHERE relayed_at IS NULL`);
    await db.query(`CREATE INDEX events_company_created ON events (company_id, created_at, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'events',
      'reconciliations',
      'transactions',
      'flows',
      'documents',
      'registry_companies',
      'counterparts',
      'categories',
      'accounts',
      'subscriptions',
      'company_grants',
      'companies',
      'api_keys',
      'integrators',
    ]) {
      await db.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
