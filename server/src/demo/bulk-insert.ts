/**
 * Multi-row inserts for generated data: one statement per batch, each column sent as one array parameter and turned
 * back into rows by `unnest`. Thousands of rows cost one round trip and one parse, and values stay bound parameters.
 */

export type Row = Record<string, unknown>;

/** Column name → PostgreSQL type, in insertion order. */
export type ColumnTypes = Readonly<Record<string, string>>;

export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

export async function insertRows(db: Queryable, table: string, columns: ColumnTypes, rows: readonly Row[], onConflict = ''): Promise<void> {
  if (rows.length === 0) return;
  const names = Object.keys(columns);
  const arrays = names.map((name, index) => `$${index + 1}::${columns[name]}[]`);
  const parameters = names.map((name) => rows.map((row) => row[name] ?? null));
  await db.query(`INSERT INTO ${table} (${names.join(', ')}) SELECT * FROM unnest(${arrays.join(', ')}) ${onConflict}`, parameters);
}

/**
 * Inserts batches as they are produced, generating the next batch while PostgreSQL writes the previous one: the two
 * run on different cores.
 */
export async function insertBatches(db: Queryable, table: string, columns: ColumnTypes, batches: Iterable<readonly Row[]>): Promise<number> {
  let inserted = 0;
  let writing: Promise<void> = Promise.resolve();
  for (const batch of batches) {
    await writing;
    writing = insertRows(db, table, columns, batch);
    inserted += batch.length;
  }
  await writing;
  return inserted;
}

export const COLUMNS = {
  categories: { id: 'uuid', company_id: 'uuid', parent_id: 'uuid', name: 'text', created_at: 'timestamptz' },
  counterparts: {
    id: 'uuid',
    company_id: 'uuid',
    company_name: 'text',
    address: 'text',
    city: 'text',
    postal_code: 'text',
    province_code: 'text',
    country: 'text',
    tax_number: 'text',
    vat_number: 'text',
    destination_code: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  registry_companies: {
    vat_number: 'text',
    tax_number: 'text',
    company_name: 'text',
    address: 'text',
    city: 'text',
    postal_code: 'text',
    province_code: 'text',
    country: 'text',
  },
  accounts: {
    id: 'uuid',
    company_id: 'uuid',
    nickname: 'text',
    iban: 'text',
    currency: 'text',
    credit_limit: 'numeric',
    created_at: 'timestamptz',
  },
  subscriptions: { company_id: 'uuid', status: 'text', created_at: 'timestamptz' },
  documents: {
    id: 'uuid',
    company_id: 'uuid',
    number: 'text',
    type: 'text',
    status: 'text',
    format: 'text',
    is_e_invoice: 'boolean',
    direction: 'text',
    currency: 'text',
    gross_amount: 'numeric',
    vat_amount: 'numeric',
    category_id: 'uuid',
    subcategory_id: 'uuid',
    counterpart_id: 'uuid',
    creation_date: 'date',
    delivery_date: 'timestamptz',
    delivery_status: 'text',
    file_name: 'text',
    notes: 'text',
    source_id: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  flows: {
    id: 'uuid',
    company_id: 'uuid',
    document_id: 'uuid',
    amount: 'numeric',
    currency: 'text',
    payment_status: 'text',
    payment_method: 'text',
    expected_payment_date: 'date',
    payment_date: 'date',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
  transactions: {
    id: 'uuid',
    company_id: 'uuid',
    account_id: 'uuid',
    type: 'text',
    amount: 'numeric',
    currency: 'text',
    booking_date_time: 'timestamptz',
    date: 'date',
    value_date: 'date',
    description: 'text',
    clean_description: 'text',
    counterpart_name: 'text',
    category_id: 'uuid',
    subcategory_id: 'uuid',
    created_at: 'timestamptz',
  },
  reconciliations: { id: 'uuid', company_id: 'uuid', flow_id: 'uuid', transaction_id: 'uuid', created_at: 'timestamptz' },
} as const satisfies Record<string, ColumnTypes>;
