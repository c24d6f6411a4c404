import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../../test/api.js';
import { DEMO_COMPANY } from './catalogue.js';
import { isValidIban } from '../common/validation/iban.js';
import { isValidPartitaIva } from '../common/validation/italian-identifiers.js';
import { reconciliationViolations } from '../reconciliations/reconciliation-invariants.js';
import { createTenant, type DemoResult, seedDemo } from './seed-demo.js';
import { startWorker } from '../../test/worker.js';
import { exampleInvoice } from '../invoices/invoice-example.js';
import { documentFormat } from '../documents/document-format.js';
import type { Direction } from '../documents/document.enums.js';
import { deriveDocument, parseInvoiceXml, sdiChecks, type Invoice } from '../invoices/fatturapa/index.js';

const TODAY = '2026-11-22';

describe('the demo data set', () => {
  let api: TestApi;
  let first: DemoResult;
  let second: DemoResult;
  const sql = <T = Record<string, unknown>>(query: string, parameters: unknown[] = []) => api.db.query(query, parameters) as Promise<T[]>;

  beforeAll(async () => {
    api = await startApi();
    first = await seedDemo(api.db, { settings: api.config, today: TODAY });
    second = await seedDemo(api.db, { settings: api.config, today: TODAY });
  });

  afterAll(() => api.close());

  describe('seedDemo', () => {
    it('reuses the demo company and integrator when run again, with a new working key each time', async () => {
      expect(first.seeded).toBe(true);
      expect(second.seeded).toBe(false);
      expect(second.companyId).toBe(first.companyId);
      expect(second.integratorId).toBe(first.integratorId);
      expect(second.accountIds).toEqual(first.accountIds);
      expect(second.apiKey).not.toBe(first.apiKey);
      expect(await sql('SELECT id FROM companies WHERE vat_number = $1', [DEMO_COMPANY.vatNumber])).toHaveLength(1);

      for (const key of [first.apiKey, second.apiKey]) {
        const response = await api.http.get('/api/v1/companies').set('Authorization', `Bearer ${key}`).expect(200);
        expect(response.body.data).toEqual([expect.objectContaining({ id: first.companyId, name: DEMO_COMPANY.name })]);
      }
      const transactions = await api.http
        .get(`/api/v1/companies/${first.companyId}/transactions?page_size=5`)
        .set('Authorization', `Bearer ${second.apiKey}`)
        .expect(200);
      expect(transactions.body.data).toHaveLength(5);
    });
  });

  describe('createTenant with the data set', () => {
    it("lets the API create an invoice on it: Flusso's ProgressivoInvio continues after the company's own files", async () => {
      const tenant = await createTenant(api.db, { settings: api.config, data: { documents: 10, transactions: 10, seed: 11 } });
      const own = await sql<{ progressivo_invio: string }>('SELECT progressivo_invio FROM invoices WHERE company_id = $1', [tenant.companyId]);
      expect(own.length).toBeGreaterThan(0);
      const created = await api.http
        .post(`/api/v1/companies/${tenant.companyId}/documents/invoice`)
        .set('Authorization', `Bearer ${tenant.apiKey}`)
        .send(exampleInvoice({ sellerVat: tenant.vatNumber.slice(2), number: 'API-1' }));
      expect([created.status, created.body.errors]).toEqual([201, undefined]);
      const [stored] = await sql<{ progressivo_invio: string }>('SELECT progressivo_invio FROM invoices WHERE document_id = $1', [created.body.data[0].id]);
      expect(own.map((row) => row.progressivo_invio)).not.toContain(stored.progressivo_invio);
    });
  });

  describe('content', () => {
    const companyId = () => first.companyId;

    it('has the sizes the demo promises', () => {
      expect(first.counts).toMatchObject({ transactions: 600, documents: 120 });
      expect(first.counts!.counterparts).toBeGreaterThanOrEqual(30);
      expect(first.accountIds).toHaveLength(3);
    });

    it("gives the company the VAT number of the Agenzia delle Entrate's example invoices, and the accounts valid Italian IBANs with balances", async () => {
      // The examples' seller (guide.spec sends them to the demo company), not a real partita IVA.
      expect(DEMO_COMPANY.vatNumber).toBe('IT01234567890');
      expect(isValidPartitaIva(DEMO_COMPANY.vatNumber.slice(2))).toBe(false);
      const accounts = await sql<{ iban: string; currency: string; current_balance: string; available_balance: string }>(
        'SELECT iban, currency, current_balance, available_balance FROM accounts WHERE company_id = $1',
        [companyId()],
      );
      for (const account of accounts) {
        expect(account.iban).toMatch(/^IT\d{2}[A-Z]\d{22}$/);
        expect(isValidIban(account.iban)).toBe(true);
        expect(account.currency).toBe('EUR');
        expect(Number(account.current_balance)).toBeGreaterThanOrEqual(0);
        expect(Number(account.available_balance)).toBeGreaterThanOrEqual(Number(account.current_balance));
      }
    });

    it('files categories under parents', async () => {
      const [{ parents, children }] = await sql<{ parents: number; children: number }>(
        `SELECT count(*) FILTER (WHERE parent_id IS NULL)::int AS parents, count(*) FILTER (WHERE parent_id IS NOT NULL)::int AS children
           FROM categories WHERE company_id = $1`,
        [companyId()],
      );
      expect(parents).toBeGreaterThanOrEqual(6);
      expect(children).toBeGreaterThan(parents);
    });

    it('gives Italian counterparts valid VAT numbers, addresses and SDI codes, and lists them in the registry', async () => {
      const counterparts = await sql<Record<string, string>>('SELECT * FROM counterparts WHERE company_id = $1', [companyId()]);
      const italian = counterparts.filter((c) => c.country === 'IT');
      expect(italian.length).toBeGreaterThanOrEqual(30);
      for (const c of italian) {
        expect(isValidPartitaIva(c.vat_number.slice(2))).toBe(true);
        expect(c.tax_number).toMatch(/^(\d{11}|[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z])$/);
        expect(c.province_code).toMatch(/^[A-Z]{2}$/);
        expect(c.postal_code).toMatch(/^\d{5}$/);
        expect(c.destination_code).toMatch(/^[A-Z0-9]{6,7}$/);
        expect(c.address).toMatch(/\d+$/);
      }
      const [{ known }] = await sql<{ known: number }>('SELECT count(*)::int AS known FROM registry_companies WHERE vat_number = ANY($1)', [
        italian.map((c) => c.vat_number),
      ]);
      expect(known).toBe(italian.length);
      const [{ total }] = await sql<{ total: number }>('SELECT count(*)::int AS total FROM registry_companies');
      expect(total).toBeGreaterThanOrEqual(italian.length + 200);
    });

    it('has documents of several types, directions and statuses, with consistent VAT and file names', async () => {
      const documents = await sql<Record<string, string | boolean | null>>(
        `SELECT d.*, c.destination_code FROM documents d LEFT JOIN counterparts c ON c.id = d.counterpart_id WHERE d.company_id = $1`,
        [companyId()],
      );
      const distinct = (field: string) => new Set(documents.map((d) => d[field]));
      expect([...distinct('type')]).toEqual(expect.arrayContaining(['INVOICE', 'CREDIT_NOTE', 'BILL', 'SELF_INVOICE', 'QUOTE']));
      expect([...distinct('direction')].sort()).toEqual(['ISSUED', 'RECEIVED']);
      expect([...distinct('status')]).toEqual(expect.arrayContaining(['DRAFT', 'DELIVERED']));
      expect([...distinct('format')].sort()).toEqual(['FPA12', 'FPR12']);
      for (const d of documents) {
        // Every format follows the one rule (the demo has no simplified invoices: each e-invoice carries its file).
        expect(d.format).toBe(documentFormat(d.direction as Direction, { destinationCode: d.destination_code as string | null }));
        const gross = Number(d.gross_amount);
        const vat = Number(d.vat_amount);
        const rate = vat / (gross - vat);
        expect(rate).toBeGreaterThan(0.035);
        expect(rate).toBeLessThan(0.225);
        if (d.file_name) expect(d.file_name).toMatch(/^IT\d{11}_[0-9A-Z]{5}\.xml$/);
        if (d.is_e_invoice && d.status !== 'DRAFT') expect(d.file_name).not.toBeNull();
      }
    });

    it('splits every document into one to three flows adding up to its gross amount (a self-invoice: less its VAT)', async () => {
      const rows = await sql<{ flows: number; difference: string }>(
        `SELECT count(f.id)::int AS flows,
                (d.gross_amount - CASE WHEN d.type = 'SELF_INVOICE' THEN d.vat_amount ELSE 0 END - coalesce(sum(f.amount), 0))::text AS difference
           FROM documents d LEFT JOIN flows f ON f.document_id = d.id WHERE d.company_id = $1 GROUP BY d.id`,
        [companyId()],
      );
      for (const row of rows) {
        expect(row.flows).toBeGreaterThanOrEqual(1);
        expect(row.flows).toBeLessThanOrEqual(3);
        expect(Number(row.difference)).toBe(0);
      }
    });

    it('reconciles paid flows with transactions of the same amount, currency and date, each paying its flow in full', async () => {
      const rows = await sql<Record<string, string>>(
        `SELECT f.payment_status, f.amount::text AS flow_amount, t.amount::text AS transaction_amount, f.currency AS flow_currency,
                t.currency AS transaction_currency, f.payment_date::text AS payment_date, t.date::text AS transaction_date,
                r.amount::text AS allocated, f.paid_amount::text AS paid_amount
           FROM reconciliations r JOIN flows f ON f.id = r.flow_id JOIN transactions t ON t.id = r.transaction_id
          WHERE r.company_id = $1`,
        [companyId()],
      );
      expect(rows.length).toBeGreaterThan(20);
      for (const row of rows) {
        expect(row.payment_status).toBe('PAID');
        expect(row.transaction_amount).toBe(row.flow_amount);
        expect(row.allocated).toBe(row.flow_amount);
        expect(row.paid_amount).toBe(row.flow_amount);
        expect(row.transaction_currency).toBe(row.flow_currency);
        expect(row.transaction_date).toBe(row.payment_date);
      }
      const [{ unpaid }] = await sql<{ unpaid: number }>(`SELECT count(*)::int AS unpaid FROM flows WHERE company_id = $1 AND payment_status = 'TO_PAY'`, [
        companyId(),
      ]);
      expect(unpaid).toBeGreaterThan(0);
    });

    it("keeps the reconciliation rules: allocations within each transaction and flow, covered flows PAID, transactions going their flow's way", async () => {
      // Flows paid in cash, or whose payment is not reconciled yet, are PAID by hand.
      expect(await reconciliationViolations(api.db.manager, companyId(), { paidByHand: true })).toEqual([]);
    });

    it('spreads credits and debits over the last year', async () => {
      const [span] = await sql<{ first: string; last: string; credits: number; debits: number }>(
        `SELECT min(date)::text AS first, max(date)::text AS last, count(*) FILTER (WHERE type = 'CREDIT')::int AS credits,
                count(*) FILTER (WHERE type = 'DEBIT')::int AS debits
           FROM transactions WHERE company_id = $1`,
        [companyId()],
      );
      expect(span.first >= '2025-11-22').toBe(true);
      expect(span.last < TODAY).toBe(true);
      expect(span.credits).toBeGreaterThan(100);
      expect(span.debits).toBeGreaterThan(100);
    });

    it('has real e-invoices, some drafts, the others issued and taken by the SDI sandbox to every final status', async () => {
      // The ones created through the API's code (e-invoices.ts: FE-2026/0001…), beside the data set's own.
      const invoices = () =>
        sql<{ id: string; status: string; xml: Buffer; reconciliation_identifier: string | null }>(
          `SELECT d.id, d.status, i.xml, i.reconciliation_identifier FROM invoices i JOIN documents d ON d.id = i.document_id
            WHERE i.company_id = $1 AND d.number ~ '^FE-[0-9]{4}/[0-9]{4}$'`,
          [companyId()],
        );
      const before = await invoices();
      expect(before.map((i) => i.status).sort()).toEqual([...Array(7).fill('CREATED'), 'DRAFT', 'DRAFT']);
      for (const invoice of before) expect(parseInvoiceXml(invoice.xml).problems).toEqual([]);
      // The transfer that quotes the first invoice's reconciliation_identifier paid it.
      const quoted = before.find((i) => i.reconciliation_identifier)!;
      expect(await sql(`SELECT payment_status FROM flows WHERE document_id = $1`, [quoted.id])).toEqual([{ payment_status: 'PAID' }]);

      const worker = await startWorker(api.config.databaseUrl, { SDI_SANDBOX_DELAYS: '100ms,100ms' });
      try {
        const deadline = Date.now() + 20_000;
        let statuses: string[] = [];
        while (Date.now() < deadline) {
          statuses = (await invoices()).map((i) => i.status).sort();
          if (!statuses.some((s) => s === 'CREATED' || s === 'SENT') && statuses.includes('REFUSED')) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(statuses).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED', 'DISCARDED', 'DRAFT', 'DRAFT', 'NOT_DELIVERED', 'NOT_DELIVERED', 'REFUSED']);
      } finally {
        await worker.close();
      }
      const read = await api.http
        .get(`/api/v1/companies/${companyId()}/documents/${quoted.id}/invoice`)
        .set('Authorization', `Bearer ${first.apiKey}`)
        .expect(200);
      expect(read.body.xml_url).toEqual(expect.stringContaining(`/invoice-files/${quoted.id}?`));
    });

    it('gives every e-invoice document its FatturaPA file, read back as the API reads any: valid, and saying what the document says', async () => {
      const documents = await sql<Record<string, string | boolean | null>>(
        `SELECT d.*, d.gross_amount::text AS gross, d.vat_amount::text AS vat, c.vat_number AS counterpart_vat, i.sent_at
           FROM documents d LEFT JOIN counterparts c ON c.id = d.counterpart_id LEFT JOIN invoices i ON i.document_id = d.id
          WHERE d.company_id = $1`,
        [companyId()],
      );
      const eInvoices = documents.filter((d) => d.is_e_invoice);
      expect(eInvoices.length).toBeGreaterThan(80);
      const auth = { Authorization: `Bearer ${first.apiKey}` };
      for (const d of eInvoices) {
        const read = await api.http.get(`/api/v1/companies/${companyId()}/documents/${d.id}/invoice`).set(auth).expect(200);
        const { xml_url: link, signed_file_url: signedLink, ...json } = read.body;
        expect(link === null).toBe(d.sent_at === null);
        expect(signedLink).toBeNull();
        const [stored] = await sql<{ xml: Buffer }>('SELECT xml FROM invoices WHERE document_id = $1', [d.id]);
        const parsed = parseInvoiceXml(stored.xml);
        expect(parsed.problems).toEqual([]);
        expect(parsed.invoice).toEqual(json);
        const invoice = json as Invoice;
        // The SDI's checks, as the one who sent it: the company for what it issues and its self-invoices, else the supplier.
        const sender = d.direction === 'ISSUED' || d.type === 'SELF_INVOICE' ? DEMO_COMPANY.vatNumber : String(d.counterpart_vat);
        expect([d.number, sdiChecks(invoice, { vat_number: sender })]).toEqual([d.number, []]);
        const derived = deriveDocument(invoice, { vat_number: DEMO_COMPANY.vatNumber });
        expect({
          number: derived.number,
          type: d.type === 'BILL' ? 'INVOICE' : d.type,
          direction: derived.direction,
          format: derived.format,
          creation_date: derived.creation_date,
          gross: derived.gross_amount.amount,
          vat: derived.vat_amount.amount,
          counterpart_vat: derived.counterpart?.vat_number,
        }).toEqual({
          number: d.number,
          type: derived.type,
          direction: d.direction,
          format: d.format,
          creation_date: d.creation_date,
          gross: d.gross,
          vat: d.vat,
          counterpart_vat: d.counterpart_vat,
        });
        const flows = await sql<{ amount: string; payment_method: string; expected_payment_date: string }>(
          `SELECT amount::text, payment_method, expected_payment_date::text FROM flows WHERE document_id = $1 ORDER BY expected_payment_date, amount`,
          [d.id],
        );
        expect(
          derived.flows.map((f) => ({ amount: f.amount.amount, payment_method: f.payment_method, expected_payment_date: f.expected_payment_date })),
        ).toEqual(flows);
      }
      // A document that is not an e-invoice has no invoice to read.
      const quote = documents.find((d) => d.type === 'QUOTE')!;
      await api.http.get(`/api/v1/companies/${companyId()}/documents/${quote.id}/invoice`).set(auth).expect(404);
    });

    it('has an active subscription', async () => {
      expect(await sql('SELECT status FROM subscriptions WHERE company_id = $1', [companyId()])).toContainEqual({ status: 'ACTIVE' });
    });
  });

  describe('createTenant', () => {
    const fingerprint = (companyId: string) =>
      sql(
        `SELECT number, type, status, direction, gross_amount::text, vat_amount::text, creation_date::text, file_name
           FROM documents WHERE company_id = $1 ORDER BY creation_date, number`,
        [companyId],
      );

    it('makes an isolated, working tenant whose data set depends only on the seed', async () => {
      const data = { seed: 7, transactions: 120, documents: 30, today: TODAY };
      const a = await createTenant(api.db, { settings: api.config, data });
      const b = await createTenant(api.db, { settings: api.config, data });
      expect(b.companyId).not.toBe(a.companyId);
      expect(await fingerprint(b.companyId)).toEqual(await fingerprint(a.companyId));
      expect((await fingerprint(a.companyId)).length).toBe(30);

      const response = await api.http.get('/api/v1/companies').set('Authorization', `Bearer ${a.apiKey}`).expect(200);
      expect(response.body.data.map((c: { id: string }) => c.id)).toEqual([a.companyId]);
      await api.http.get(`/api/v1/companies/${b.companyId}/transactions`).set('Authorization', `Bearer ${a.apiKey}`).expect(403);
    });
  });

  // Last: it replaces the demo company the other tests read.
  describe('seedDemo with reset', () => {
    it('deletes the demo company and builds it again', async () => {
      const reset = await seedDemo(api.db, { settings: api.config, today: TODAY, reset: true, transactions: 50, documents: 10 });
      expect(reset.seeded).toBe(true);
      expect(reset.companyId).not.toBe(first.companyId);
      expect(reset.counts?.transactions).toBe(50);
      expect(await sql('SELECT id FROM companies WHERE vat_number = $1', [DEMO_COMPANY.vatNumber])).toHaveLength(1);
    });
  });
});
