import { Like } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { byUuid, expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Account } from '../accounts/account.entity.js';
import { DomainEvent } from '../common/events/event.entity.js';
import type { Document } from '../documents/document.entity.js';
import type { Flow } from '../flows/flow.entity.js';
import type { Transaction } from '../transactions/transaction.entity.js';
import { flowsComeIn } from '../documents/document.enums.js';
import { formatCents } from '../demo/calendar.js';
import { Random } from '../demo/random.js';
import { Reconciliation } from '../transactions/reconciliation.entity.js';
import { reconciliationViolations } from './reconciliation-invariants.js';

describe('reconciliations', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let fixtures: Fixtures;
  let base: string;
  let account: Account;
  let invoice: Document;
  let foreignFlow: Flow;
  let foreignTransaction: Transaction;
  let foreignReconciliation: Reconciliation;

  const at = (iso: string) => new Date(iso);

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    account = await fixtures.account();
    // Large enough for every flow the tests give it: a document's flows total at most its gross amount.
    invoice = await fixtures.document({ number: 'FV-2026/0042', grossAmount: '500000.00' });
    const verdiFixtures = new Fixtures(api.db, verdi.companyId);
    const verdiDocument = await verdiFixtures.document();
    foreignFlow = await verdiFixtures.flow(verdiDocument);
    foreignTransaction = await verdiFixtures.transaction(await verdiFixtures.account());
    foreignReconciliation = await verdiFixtures.reconciliation(foreignFlow, foreignTransaction);
    base = `/api/v1/companies/${rossi.companyId}/reconciliations`;
  });

  afterAll(() => api.close());

  const flow = (amount: string, values: Partial<Flow> = {}) => fixtures.flow(invoice, { amount, ...values });
  const transaction = (amount: string, date: string, values: Partial<Transaction> = {}) => fixtures.transaction(account, { amount, date, ...values });
  const create = (body: unknown) =>
    api.http
      .post(base)
      .set(rossi.auth)
      .send(body as object);
  const flowNow = async (id: string) =>
    (await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${invoice.id}/flows/${id}`).set(rossi.auth).expect(200)).body;
  // The document's events: each link or unlink also records its reconciliation.* event (events/events.spec.ts).
  const eventCount = () => api.db.getRepository(DomainEvent).countBy({ companyId: rossi.companyId, type: Like('document.%') });
  const lastEvent = async () =>
    (
      await api.db
        .getRepository(DomainEvent)
        .find({ where: { companyId: rossi.companyId, type: Like('document.%') }, order: { createdAt: 'DESC', id: 'DESC' }, take: 1 })
    )[0];

  const transactionBody = (t: Transaction) => ({
    id: t.id,
    account_id: account.id,
    type: t.type,
    amount: { amount: t.amount, currency: t.currency },
    booking_date_time: t.bookingDateTime?.toISOString() ?? null,
    date: t.date,
    value_date: t.valueDate,
    description: t.description,
    clean_description: t.cleanDescription,
    counterpart_name: t.counterpartName,
    created_at: t.createdAt.toISOString(),
    category_id: null,
    category: null,
    subcategory_id: null,
    subcategory: null,
    reconciliations: null,
  });

  describe('create and delete', () => {
    it('links a flow and a transaction (201, both expanded); the flow stays TO_PAY while partly covered', async () => {
      const f = await flow('1000.00');
      const t = await transaction('600.00', '2026-03-10');
      const events = await eventCount();
      const response = await create({ flow_id: f.id, transaction_id: t.id }).expect(201);
      expect(response.body).toEqual({
        id: expect.any(String),
        flow_id: f.id,
        transaction_id: t.id,
        amount: { amount: '600.00', currency: 'EUR' },
        flow: {
          id: f.id,
          document_id: invoice.id,
          amount: { amount: '1000.00', currency: 'EUR' },
          paid_amount: { amount: '600.00', currency: 'EUR' },
          payment_status: 'TO_PAY',
          payment_method: 'TRANSFER',
          expected_payment_date: '2026-03-31',
          payment_date: null,
          created_at: f.createdAt.toISOString(),
        },
        transaction: transactionBody(t),
        created_at: expect.any(String),
      });
      const stored = await api.db.getRepository(Reconciliation).findOneByOrFail({ id: response.body.id });
      expect(stored).toMatchObject({ companyId: rossi.companyId, flowId: f.id, transactionId: t.id, amount: '600.00', currency: 'EUR' });
      expect(response.body.created_at).toBe(stored.createdAt.toISOString());
      expect(await eventCount()).toBe(events + 1);
      const event = await lastEvent();
      expect(event).toMatchObject({ type: 'document.updated' });
      expect(event.payload).toMatchObject({ id: invoice.id, flows: expect.arrayContaining([expect.objectContaining({ id: f.id, payment_status: 'TO_PAY' })]) });
    });

    it('marks the flow PAID with the latest linked transaction date once covered, and TO_PAY again after a delete', async () => {
      const f = await flow('1000.00');
      const later = await transaction('400.00', '2026-03-20');
      const earlier = await transaction('600.00', '2026-03-10');
      const first = await create({ flow_id: f.id, transaction_id: later.id }).expect(201);
      expect(first.body.flow).toMatchObject({ payment_status: 'TO_PAY', payment_date: null });
      const events = await eventCount();
      const second = await create({ flow_id: f.id, transaction_id: earlier.id }).expect(201);
      expect(second.body.flow).toMatchObject({ payment_status: 'PAID', payment_date: '2026-03-20' });
      expect(await flowNow(f.id)).toMatchObject({ payment_status: 'PAID', payment_date: '2026-03-20' });
      expect(await eventCount()).toBe(events + 1);
      expect((await lastEvent()).payload.flows).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: f.id, payment_status: 'PAID', payment_date: '2026-03-20' })]),
      );

      // A reconciled flow cannot be set back to TO_PAY by hand.
      expectError(
        await api.http.patch(`/api/v1/companies/${rossi.companyId}/documents/${invoice.id}/flows/${f.id}`).set(rossi.auth).send({ payment_status: 'TO_PAY' }),
        422,
        'invalid_state',
        '/payment_status',
      );

      // Deleting the earlier link leaves 400 of 1000 covered: back to TO_PAY without a date.
      const deleted = await api.http.delete(`${base}/${second.body.id}`).set(rossi.auth).expect(204);
      expect(deleted.text).toBe('');
      expect(await flowNow(f.id)).toMatchObject({ payment_status: 'TO_PAY', payment_date: null });
      expect(await eventCount()).toBe(events + 2);
      expect((await lastEvent()).payload.flows).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: f.id, payment_status: 'TO_PAY', payment_date: null })]),
      );
      expect(await api.db.getRepository(Reconciliation).existsBy({ id: second.body.id })).toBe(false);
      expectError(await api.http.get(`${base}/${second.body.id}`).set(rossi.auth), 404, 'not_found');
      expectError(await api.http.delete(`${base}/${second.body.id}`).set(rossi.auth), 404, 'not_found', undefined, 'Reconciliation was not found.');

      // Deleting the last link keeps it TO_PAY.
      await api.http.delete(`${base}/${first.body.id}`).set(rossi.auth).expect(204);
      expect(await flowNow(f.id)).toMatchObject({ payment_status: 'TO_PAY', payment_date: null });
      expect(await eventCount()).toBe(events + 3);
    });

    it('a transaction larger than what remains of the flow pays the rest and keeps its remainder for other flows', async () => {
      const f = await flow('500.00');
      const small = await transaction('300.00', '2026-04-01');
      const big = await transaction('1500.00', '2026-04-05');
      const first = await create({ flow_id: f.id, transaction_id: small.id }).expect(201);
      expect(first.body.flow).toMatchObject({ payment_status: 'TO_PAY', paid_amount: { amount: '300.00', currency: 'EUR' } });
      const second = await create({ flow_id: f.id, transaction_id: big.id }).expect(201);
      expect(second.body).toMatchObject({ amount: { amount: '200.00', currency: 'EUR' }, flow: { payment_status: 'PAID', payment_date: '2026-04-05' } });
      // Deleting the first link leaves 200.00 of 500.00 paid: back to TO_PAY; the big transfer still has 1,300.00 to give.
      await api.http.delete(`${base}/${first.body.id}`).set(rossi.auth).expect(204);
      expect(await flowNow(f.id)).toMatchObject({ payment_status: 'TO_PAY', payment_date: null, paid_amount: { amount: '200.00', currency: 'EUR' } });
      expect((await create({ flow_id: (await flow('1400.00')).id, transaction_id: big.id }).expect(201)).body.amount).toEqual({
        amount: '1300.00',
        currency: 'EUR',
      });
    });

    it('keeps a flow already marked PAID by hand PAID (and its date) when a partial link is added', async () => {
      const f = await flow('800.00', { paymentStatus: 'PAID', paymentDate: '2026-02-01' });
      const t = await transaction('100.00', '2026-02-15');
      const response = await create({ flow_id: f.id, transaction_id: t.id }).expect(201);
      expect(response.body.flow).toMatchObject({ payment_status: 'PAID', payment_date: '2026-02-01' });
    });

    it('keeps a flow marked PAID by hand PAID when a partial link is added and deleted again', async () => {
      const f = await flow('800.00', { paymentStatus: 'PAID', paymentDate: '2026-02-01' });
      const t = await transaction('100.00', '2026-02-15');
      const link = await create({ flow_id: f.id, transaction_id: t.id }).expect(201);
      await api.http.delete(`${base}/${link.body.id}`).set(rossi.auth).expect(204);
      expect(await flowNow(f.id)).toMatchObject({ payment_status: 'PAID', payment_date: '2026-02-01' });
    });

    it("re-checks coverage when a reconciled flow's amount changes", async () => {
      const f = await flow('500.00');
      const t = await transaction('500.00', '2026-06-10');
      await create({ flow_id: f.id, transaction_id: t.id }).expect(201);
      const patchAmount = (amount: string) =>
        api.http
          .patch(`/api/v1/companies/${rossi.companyId}/documents/${invoice.id}/flows/${f.id}`)
          .set(rossi.auth)
          .send({ amount: { amount, currency: 'EUR' } })
          .expect(200);
      expect((await patchAmount('650.00')).body).toMatchObject({
        payment_status: 'TO_PAY',
        payment_date: null,
        paid_amount: { amount: '500.00', currency: 'EUR' },
      });
      expect((await patchAmount('500.00')).body).toMatchObject({ payment_status: 'PAID', payment_date: '2026-06-10' });
    });

    it('refuses a transaction whose amount the flows linked to it already use, recording nothing', async () => {
      const a = await flow('400.00');
      const b = await flow('200.00');
      const c = await flow('50.00');
      const t = await transaction('600.00', '2026-05-20');
      await create({ flow_id: a.id, transaction_id: t.id }).expect(201);
      await create({ flow_id: b.id, transaction_id: t.id }).expect(201);
      const events = await eventCount();
      expectError(await create({ flow_id: c.id, transaction_id: t.id }), 422, 'transaction_fully_reconciled', '/transaction_id');
      expect(await api.db.getRepository(Reconciliation).countBy({ flowId: c.id })).toBe(0);
      expect(await eventCount()).toBe(events);
    });

    it('one transaction may pay several flows', async () => {
      const a = await flow('300.00');
      const b = await flow('300.00');
      const t = await transaction('600.00', '2026-05-02');
      expect((await create({ flow_id: a.id, transaction_id: t.id }).expect(201)).body.flow.payment_status).toBe('PAID');
      expect((await create({ flow_id: b.id, transaction_id: t.id }).expect(201)).body.flow.payment_status).toBe('PAID');
    });

    it('refuses a duplicate link with reconciliation_exists, recording nothing', async () => {
      const f = await flow('1000.00');
      const t = await transaction('100.00', '2026-03-10');
      await create({ flow_id: f.id, transaction_id: t.id }).expect(201);
      const events = await eventCount();
      expectError(await create({ flow_id: f.id, transaction_id: t.id }), 422, 'reconciliation_exists', '/transaction_id');
      expectError(await create({ flow_id: f.id.toUpperCase(), transaction_id: t.id.toUpperCase() }), 422, 'reconciliation_exists', '/transaction_id');
      expect(await api.db.getRepository(Reconciliation).countBy({ flowId: f.id, transactionId: t.id })).toBe(1);
      expect(await eventCount()).toBe(events);
    });

    it('refuses a transaction in another currency with currency_mismatch, recording nothing', async () => {
      const f = await flow('1000.00');
      const t = await transaction('1000.00', '2026-03-10', { currency: 'USD' });
      const events = await eventCount();
      expectError(await create({ flow_id: f.id, transaction_id: t.id }), 422, 'currency_mismatch', '/transaction_id');
      expect(await api.db.getRepository(Reconciliation).countBy({ flowId: f.id })).toBe(0);
      expect(await flowNow(f.id)).toMatchObject({ payment_status: 'TO_PAY' });
      expect(await eventCount()).toBe(events);
    });

    it("answers 404 for unknown ids and 403 for another company's, with a pointer to the member", async () => {
      const f = await flow('10.00');
      const t = await transaction('10.00', '2026-03-10');
      const unknown = '3e2d1c0b-0000-4000-8000-000000000000';
      const events = await eventCount();
      expectError(await create({ flow_id: unknown, transaction_id: t.id }), 404, 'not_found', '/flow_id', 'Flow was not found.');
      expectError(await create({ flow_id: f.id, transaction_id: unknown }), 404, 'not_found', '/transaction_id', 'Transaction was not found.');
      expectError(await create({ flow_id: foreignFlow.id, transaction_id: t.id }), 403, 'forbidden', '/flow_id');
      expectError(await create({ flow_id: f.id, transaction_id: foreignTransaction.id }), 403, 'forbidden', '/transaction_id');
      expectError(await create({ flow_id: foreignFlow.id, transaction_id: foreignTransaction.id }), 403, 'forbidden', '/flow_id');
      expect(await eventCount()).toBe(events);
      expect(await api.db.getRepository(Reconciliation).countBy({ flowId: foreignFlow.id })).toBe(1);
    });

    it('answers 400 for a missing, mistyped or unknown member', async () => {
      const missing = await create({}).expect(400);
      expect(missing.body).toEqual({
        errors: [
          { code: 'bad_request', title: 'Bad request', detail: 'flow_id is required', source: { pointer: '/flow_id' } },
          { code: 'bad_request', title: 'Bad request', detail: 'transaction_id is required', source: { pointer: '/transaction_id' } },
        ],
        meta: { request_id: expect.any(String) },
      });
      const f = await flow('10.00');
      expectError(await create({ flow_id: f.id, transaction_id: 'T-1' }), 400, 'bad_request', '/transaction_id', 'transaction_id must be a uuid');
      expectError(await create({ flow_id: f.id, transaction_id: null }), 400, 'bad_request', '/transaction_id');
      expectError(await create({ flow_id: f.id, transaction_id: 12 }), 400, 'bad_request', '/transaction_id');
      expectError(await create({ flow_id: f.id, transaction_id: f.id, amount: '10.00' }), 400, 'bad_request', '/amount');
    });

    it('deletes a reconciliation once when twenty requests race: one 204 and one event, the others 404 recording nothing', async () => {
      const f = await flow('700.00');
      const t = await transaction('700.00', '2026-07-01');
      const link = await create({ flow_id: f.id, transaction_id: t.id }).expect(201);
      const events = await eventCount();
      const responses = await Promise.all(Array.from({ length: 20 }, () => api.http.delete(`${base}/${link.body.id}`).set(rossi.auth)));
      expect(responses.map((r) => r.status).sort()).toEqual([204, ...Array<number>(19).fill(404)]);
      for (const response of responses.filter((r) => r.status === 404)) expectError(response, 404, 'not_found', undefined, 'Reconciliation was not found.');
      expect(await eventCount()).toBe(events + 1);
      expect(await flowNow(f.id)).toMatchObject({ payment_status: 'TO_PAY', payment_date: null });
    });

    it("answers 404 deleting an unknown reconciliation and 403 another company's, which survives", async () => {
      expectError(await api.http.delete(`${base}/3e2d1c0b-0000-4000-8000-000000000000`).set(rossi.auth), 404, 'not_found');
      expectError(await api.http.delete(`${base}/${foreignReconciliation.id}`).set(rossi.auth), 403, 'forbidden');
      expect(await api.db.getRepository(Reconciliation).existsBy({ id: foreignReconciliation.id })).toBe(true);
    });
  });

  describe('money is allocated, never paid twice', () => {
    const patchFlow = (f: Flow, payload: unknown) =>
      api.http
        .patch(`/api/v1/companies/${rossi.companyId}/documents/${f.documentId}/flows/${f.id}`)
        .set(rossi.auth)
        .send(payload as object);
    const allocatedFrom = async (t: Transaction) =>
      (await api.db.query('SELECT coalesce(sum(amount), 0)::text AS sum FROM reconciliations WHERE transaction_id = $1', [t.id]))[0].sum;

    it('allocates a transaction across its flows in link order: 505.01 pays 450.75 in full and 54.26 of 360.07', async () => {
      const a = await flow('450.75');
      const b = await flow('360.07');
      const t = await transaction('505.01', '2026-08-03');
      const first = await create({ flow_id: a.id, transaction_id: t.id }).expect(201);
      expect(first.body.flow).toMatchObject({ payment_status: 'PAID', payment_date: '2026-08-03' });
      const second = await create({ flow_id: b.id, transaction_id: t.id }).expect(201);
      expect(second.body.flow).toMatchObject({ payment_status: 'TO_PAY', payment_date: null });
      expect(first.body).toMatchObject({ amount: { amount: '450.75', currency: 'EUR' }, flow: { paid_amount: { amount: '450.75', currency: 'EUR' } } });
      expect(second.body).toMatchObject({ amount: { amount: '54.26', currency: 'EUR' }, flow: { paid_amount: { amount: '54.26', currency: 'EUR' } } });
      expect(await allocatedFrom(t)).toBe('505.01');
      expectError(await create({ flow_id: (await flow('10.00')).id, transaction_id: t.id }), 422, 'transaction_fully_reconciled', '/transaction_id');
    });

    it('allocates in parallel too: a 1,204.40 transfer linked at once to flows worth 1,597.55 pays 1,204.40 of them', async () => {
      const flows = await Promise.all(['400.00', '350.55', '300.00', '297.00', '250.00'].map((amount) => flow(amount)));
      const t = await transaction('1204.40', '2026-08-10');
      const events = await eventCount();
      const responses = await Promise.all(flows.map((f) => create({ flow_id: f.id, transaction_id: t.id })));
      const created = responses.filter((r) => r.status === 201);
      for (const refused of responses.filter((r) => r.status !== 201)) expectError(refused, 422, 'transaction_fully_reconciled', '/transaction_id');
      const now = await Promise.all(flows.map((f) => flowNow(f.id)));
      const paid = now.filter((f) => f.payment_status === 'PAID').reduce((sum, f) => sum + Math.round(Number(f.amount.amount) * 100), 0);
      expect(paid).toBeLessThanOrEqual(120440);
      expect(await allocatedFrom(t)).toBe('1204.40');
      for (const f of now) expect(f.payment_status === 'PAID').toBe(f.paid_amount.amount === f.amount.amount);
      expect(await eventCount()).toBe(events + created.length);
    });

    it("takes the reconciliation's own amount when given, never more than remains of the transaction or the flow", async () => {
      const f = await flow('1000.00');
      const t = await transaction('600.00', '2026-09-01');
      const events = await eventCount();
      const part = await create({ flow_id: f.id, transaction_id: t.id, amount: { amount: '250.00', currency: 'EUR' } }).expect(201);
      expect(part.body).toMatchObject({
        amount: { amount: '250.00', currency: 'EUR' },
        flow: { payment_status: 'TO_PAY', paid_amount: { amount: '250.00', currency: 'EUR' } },
      });
      const t2 = await transaction('800.00', '2026-09-05');
      expectError(
        await create({ flow_id: f.id, transaction_id: t2.id, amount: { amount: '750.01', currency: 'EUR' } }),
        422,
        'amount_exceeds_remaining',
        '/amount/amount',
      );
      expectError(
        await create({ flow_id: f.id, transaction_id: t2.id, amount: { amount: '0.00', currency: 'EUR' } }),
        422,
        'unprocessable_entity',
        '/amount/amount',
      );
      expectError(
        await create({ flow_id: f.id, transaction_id: t2.id, amount: { amount: '10.00', currency: 'USD' } }),
        422,
        'currency_mismatch',
        '/amount/currency',
      );
      expectError(await create({ flow_id: f.id, transaction_id: t2.id, amount: '10.00' }), 400, 'bad_request', '/amount');
      const other = await flow('500.00');
      expectError(
        await create({ flow_id: other.id, transaction_id: t.id, amount: { amount: '350.01', currency: 'EUR' } }),
        422,
        'amount_exceeds_remaining',
        '/amount/amount',
      );
      expect(await eventCount()).toBe(events + 1);
      const rest = await create({ flow_id: f.id, transaction_id: t2.id, amount: { amount: '750.0', currency: 'EUR' } }).expect(201);
      expect(rest.body).toMatchObject({ amount: { amount: '750.0', currency: 'EUR' }, flow: { payment_status: 'PAID', payment_date: '2026-09-05' } });
      // The flow is paid in full: another transaction has nothing left to pay.
      expectError(await create({ flow_id: f.id, transaction_id: (await transaction('100.00', '2026-09-06')).id }), 422, 'flow_fully_reconciled', '/flow_id');
      // What remains of the first transaction (350.00) pays another flow by default.
      expect((await create({ flow_id: other.id, transaction_id: t.id }).expect(201)).body.amount).toEqual({ amount: '350.00', currency: 'EUR' });
    });

    it('judges coverage on the values after a flow change, whatever members it carries', async () => {
      const f = await flow('1232.32');
      const t = await transaction('100.34', '2026-09-12');
      await create({ flow_id: f.id, transaction_id: t.id }).expect(201);
      const events = await eventCount();
      expectError(
        await patchFlow(f, { amount: { amount: '50.00', currency: 'EUR' }, payment_status: 'TO_PAY' }),
        422,
        'amount_below_reconciled',
        '/amount/amount',
      );
      expectError(await patchFlow(f, { amount: { amount: '50.00', currency: 'EUR' } }), 422, 'amount_below_reconciled', '/amount/amount');
      expectError(await patchFlow(f, { amount: { amount: '100.34', currency: 'EUR' }, payment_status: 'TO_PAY' }), 422, 'invalid_state', '/payment_status');
      expect(await flowNow(f.id)).toMatchObject({ amount: { amount: '1232.32' }, payment_status: 'TO_PAY' });
      expect(await eventCount()).toBe(events);
      expect((await patchFlow(f, { amount: { amount: '100.340', currency: 'EUR' } }).expect(200)).body).toMatchObject({
        payment_status: 'PAID',
        payment_date: '2026-09-12',
        paid_amount: { amount: '100.34', currency: 'EUR' },
      });
      expectError(await patchFlow(f, { payment_status: 'TO_PAY' }), 422, 'invalid_state', '/payment_status');
      expect((await patchFlow(f, { amount: { amount: '1232.32', currency: 'EUR' } }).expect(200)).body).toMatchObject({
        payment_status: 'TO_PAY',
        payment_date: null,
      });
      expect(await eventCount()).toBe(events + 2);
    });

    it('links a flow only with a transaction going its way (credit notes reverse it), else direction_mismatch', async () => {
      const debit = (amount: string) => transaction(amount, '2026-10-01', { type: 'DEBIT' });
      const credit = (amount: string) => transaction(amount, '2026-10-01', { type: 'CREDIT' });
      const received = await fixtures.document({ number: 'ACQ-77', direction: 'RECEIVED', type: 'INVOICE' });
      const issuedNote = await fixtures.document({ number: 'NC-2026/0009', direction: 'ISSUED', type: 'CREDIT_NOTE' });
      const receivedNote = await fixtures.document({ number: 'NC-ACQ-3', direction: 'RECEIVED', type: 'CREDIT_NOTE' });
      const selfInvoice = await fixtures.document({ number: 'AF-12', direction: 'RECEIVED', type: 'SELF_INVOICE' });
      const events = await eventCount();
      expectError(
        await create({ flow_id: (await flow('100.00')).id, transaction_id: (await debit('100.00')).id }),
        422,
        'direction_mismatch',
        '/transaction_id',
      );
      expectError(
        await create({ flow_id: (await fixtures.flow(received)).id, transaction_id: (await credit('100.00')).id }),
        422,
        'direction_mismatch',
        '/transaction_id',
      );
      expectError(
        await create({ flow_id: (await fixtures.flow(issuedNote)).id, transaction_id: (await credit('100.00')).id }),
        422,
        'direction_mismatch',
        '/transaction_id',
      );
      expectError(
        await create({ flow_id: (await fixtures.flow(receivedNote)).id, transaction_id: (await debit('100.00')).id }),
        422,
        'direction_mismatch',
        '/transaction_id',
      );
      expect(await eventCount()).toBe(events);
      await create({ flow_id: (await fixtures.flow(received)).id, transaction_id: (await debit('100.00')).id }).expect(201);
      await create({ flow_id: (await fixtures.flow(issuedNote)).id, transaction_id: (await debit('100.00')).id }).expect(201);
      await create({ flow_id: (await fixtures.flow(receivedNote)).id, transaction_id: (await credit('100.00')).id }).expect(201);
      await create({ flow_id: (await fixtures.flow(selfInvoice)).id, transaction_id: (await debit('100.00')).id }).expect(201);
    });
  });

  describe('random links and unlinks, one after another and in parallel', () => {
    // A new seed each run explores new sequences; a failure names its seed, and RECONCILIATION_SEED replays it.
    const seed = Number(process.env.RECONCILIATION_SEED ?? Date.now() % 2 ** 31);
    const random = new Random(seed);
    const refusals = new Set([
      'transaction_fully_reconciled',
      'flow_fully_reconciled',
      'amount_exceeds_remaining',
      'direction_mismatch',
      'reconciliation_exists',
    ]);
    let tenant: Tenant;
    let flows: Flow[];
    let transactions: Transaction[];
    const links: string[] = [];
    const gone: string[] = [];
    const paidBy = new Map<string, string>();

    beforeAll(async () => {
      tenant = await createTenant(api, 'Galli Logistica S.r.l.');
      const own = new Fixtures(api.db, tenant.companyId);
      const account = await own.account();
      const documents = await Promise.all([
        own.document({ number: 'FV-1' }),
        own.document({ number: 'FV-2' }),
        own.document({ number: 'ACQ-1', direction: 'RECEIVED', type: 'BILL' }),
        own.document({ number: 'NC-1', type: 'CREDIT_NOTE' }),
      ]);
      const amounts = ['120.00', '75.50', '300.00', '49.99', '210.10', '88.00', '60.00', '15.25'];
      flows = await Promise.all(amounts.map((amount, i) => own.flow(documents[i % documents.length], { amount })));
      for (const [i, f] of flows.entries()) paidBy.set(f.id, flowsComeIn(documents[i % documents.length]) ? 'CREDIT' : 'DEBIT');
      transactions = await Promise.all(
        (
          [
            ['250.00', 'CREDIT'],
            ['99.99', 'CREDIT'],
            ['400.00', 'CREDIT'],
            ['180.00', 'DEBIT'],
            ['75.00', 'DEBIT'],
          ] as const
        ).map(([amount, type]) => own.transaction(account, { amount, type })),
      );
    });

    /** A random request: a new link (sometimes with its own amount) or the deletion of a link. */
    const randomRequest = () => {
      const path = `/api/v1/companies/${tenant.companyId}/reconciliations`;
      if (links.length && random.chance(0.4)) {
        // Mostly a live link, sometimes one already deleted (404); in parallel, two requests may race for one link.
        const id = gone.length && random.chance(0.1) ? random.pick(gone) : random.pick(links);
        return { kind: 'delete', id, run: () => api.http.delete(`${path}/${id}`).set(tenant.auth) };
      }
      const f = random.pick(flows);
      // Mostly a transaction going the flow's way, sometimes any (refused with direction_mismatch when it goes the other).
      const t = random.pick(random.chance(0.8) ? transactions.filter((candidate) => candidate.type === paidBy.get(f.id)) : transactions);
      const body = {
        flow_id: f.id,
        transaction_id: t.id,
        ...(random.chance(0.3) && { amount: { amount: formatCents(random.int(1, 15_000)), currency: 'EUR' } }),
      };
      return { kind: 'create', id: undefined, run: () => api.http.post(path).set(tenant.auth).send(body) };
    };
    const events = () => api.db.getRepository(DomainEvent).countBy({ companyId: tenant.companyId });

    /** Runs the requests side by side, then checks every invariant and that each effective change recorded one event. */
    async function round(step: number, requests: Array<ReturnType<typeof randomRequest>>) {
      const before = await events();
      const responses = await Promise.all(requests.map((request) => request.run()));
      responses.forEach((response, i) => {
        const { kind } = requests[i];
        const allowed = kind === 'create' ? [201, 422] : [204, 404];
        const { status } = response;
        expect({ seed, step, kind, status }).toEqual({ seed, step, kind, status: allowed.includes(status) ? status : allowed });
        const code = status === 422 ? response.body.errors[0].code : undefined;
        if (code) expect({ seed, step, code }).toEqual({ seed, step, code: refusals.has(code) ? code : [...refusals] });
        if (status === 201) links.push(response.body.id);
        if (status === 204) {
          links.splice(links.indexOf(requests[i].id!), 1);
          gone.push(requests[i].id!);
        }
      });
      const effective = responses.filter((r) => r.status === 201 || r.status === 204).length;
      // Each effective link or unlink records two events: the document's update and the reconciliation's own.
      expect({ seed, step, events: (await events()) - before }).toEqual({ seed, step, events: effective * 2 });
      expect({ seed, step, violations: await reconciliationViolations(api.db.manager, tenant.companyId, { paidByHand: false }) }).toEqual({
        seed,
        step,
        violations: [],
      });
      return effective;
    }

    it('keeps allocations within each transaction and flow, PAID exactly when fully allocated, one event per change: one request at a time', async () => {
      let effective = 0;
      for (let step = 0; step < 80; step++) effective += await round(step, [randomRequest()]);
      expect({ seed, effective: effective >= 20 }).toEqual({ seed, effective: true });
    });

    it('and with twelve requests at a time', async () => {
      let effective = 0;
      for (let step = 0; step < 12; step++) effective += await round(step, Array.from({ length: 12 }, randomRequest));
      expect({ seed, effective: effective >= 30 }).toEqual({ seed, effective: true });
    });
  });

  describe('list and get', () => {
    let document: Document;
    let f1: Flow;
    let f2: Flow;
    let t1: Transaction;
    let t2: Transaction;
    let r1: Reconciliation;
    let r2: Reconciliation;
    let r3: Reconciliation;
    let r4: Reconciliation;
    let company: TestApi;
    let tenant: Tenant;

    beforeAll(async () => {
      // A company of its own, so the reconciliations made above do not appear here.
      company = api;
      tenant = await createTenant(api, 'Neri Trasporti S.r.l.');
      const own = new Fixtures(api.db, tenant.companyId);
      const ownAccount = await own.account();
      document = await own.document();
      f1 = await own.flow(document, { amount: '5000.00' });
      f2 = await own.flow(document, { amount: '5000.00' });
      t1 = await own.transaction(ownAccount, { amount: '100.00' });
      t2 = await own.transaction(ownAccount, { amount: '200.00' });
      r1 = await own.reconciliation(f1, t1, { amount: '50.00', createdAt: at('2026-04-01T10:00:00Z') });
      r2 = await own.reconciliation(f1, t2, { amount: '100.00', createdAt: at('2026-04-02T10:00:00Z') });
      r3 = await own.reconciliation(f2, t1, { amount: '50.00', createdAt: at('2026-04-03T10:00:00Z') });
      r4 = await own.reconciliation(f2, t2, { amount: '100.00', createdAt: at('2026-04-03T10:00:00Z') });
    });

    const list = (query = '') => company.http.get(`/api/v1/companies/${tenant.companyId}/reconciliations${query ? `?${query}` : ''}`).set(tenant.auth);
    const listIds = async (query: string) => ids(await list(query).expect(200));
    const sameInstant = () => [r3.id, r4.id].sort(byUuid);

    it('lists newest first, flow and transaction null unless expanded', async () => {
      const response = await list().expect(200);
      expect(ids(response)).toEqual([...sameInstant().reverse(), r2.id, r1.id]);
      expect(response.body.data[3]).toEqual({
        id: r1.id,
        flow_id: f1.id,
        transaction_id: t1.id,
        amount: { amount: '50.00', currency: 'EUR' },
        flow: null,
        transaction: null,
        created_at: '2026-04-01T10:00:00.000Z',
      });
    });

    it('sorts by created_at ascending, ties by id', async () => {
      expect(await listIds('sort=created_at')).toEqual([r1.id, r2.id, ...sameInstant()]);
    });

    it('filters by flow_id, transaction_id and created_at', async () => {
      expect(await listIds(`filter[flow_id]=${f1.id}&sort=created_at`)).toEqual([r1.id, r2.id]);
      expect(await listIds(`filter[flow_id__neq]=${f1.id}&sort=created_at`)).toEqual(sameInstant());
      expect(await listIds(`filter[transaction_id]=${t1.id}&sort=created_at`)).toEqual([r1.id, r3.id]);
      expect(await listIds(`filter[transaction_id__in]=${t1.id},${t2.id}&filter[flow_id]=${f2.id}&sort=created_at`)).toEqual(sameInstant());
      expect(await listIds(`filter[transaction_id__notIn]=${t1.id}&sort=created_at`)).toEqual([r2.id, r4.id]);
      expect(await listIds('filter[created_at]=2026-04-02T10:00:00Z')).toEqual([r2.id]);
      expect(await listIds('filter[created_at__gte]=2026-04-02T10:00:00Z&sort=created_at')).toEqual([r2.id, ...sameInstant()]);
      expect(await listIds('filter[created_at__gt]=2026-04-02T10:00:00Z&sort=created_at')).toEqual(sameInstant());
      expect(await listIds('filter[created_at__lt]=2026-04-02&sort=created_at')).toEqual([r1.id]);
      expect(await listIds('filter[created_at__lte]=2026-04-02T10:00:00.000Z&sort=created_at')).toEqual([r1.id, r2.id]);
      expect(await listIds(`filter[flow_id]=${foreignFlow.id}`)).toEqual([]);
      expectError(await list('filter[flow_id]=abc'), 400, 'invalid_query_parameter', '/query/filter[flow_id]');
      expectError(await list('filter[amount]=1'), 400, 'invalid_query_parameter', '/query/filter[amount]');
      expectError(await list('sort=flow_id'), 400, 'invalid_query_parameter', '/query/sort');
    });

    it('expands flow and transaction', async () => {
      const response = await list(`expand=flow,transaction&filter[flow_id]=${f1.id}&sort=created_at&page_size=1`).expect(200);
      expect(response.body.data).toEqual([
        {
          id: r1.id,
          flow_id: f1.id,
          transaction_id: t1.id,
          amount: { amount: '50.00', currency: 'EUR' },
          flow: expect.objectContaining({ id: f1.id, amount: { amount: '5000.00', currency: 'EUR' }, payment_status: 'TO_PAY' }),
          transaction: expect.objectContaining({ id: t1.id, amount: { amount: '100.00', currency: 'EUR' }, reconciliations: null }),
          created_at: '2026-04-01T10:00:00.000Z',
        },
      ]);
      expect(response.body.page.cursor).toEqual(expect.any(String));
      const onlyFlow = await list('expand=flow&sort=created_at&page_size=1').expect(200);
      expect(onlyFlow.body.data[0]).toMatchObject({ flow: { id: f1.id }, transaction: null });
      expectError(await list('expand=document'), 400, 'invalid_query_parameter', '/query/expand');
      expectError(await list('expand=transaction.reconciliations'), 400, 'invalid_query_parameter', '/query/expand');
    });

    it('reads one reconciliation with its expansions', async () => {
      const path = `/api/v1/companies/${tenant.companyId}/reconciliations/${r2.id}`;
      expect((await api.http.get(path).set(tenant.auth).expect(200)).body).toEqual({
        id: r2.id,
        flow_id: f1.id,
        transaction_id: t2.id,
        amount: { amount: '100.00', currency: 'EUR' },
        flow: null,
        transaction: null,
        created_at: '2026-04-02T10:00:00.000Z',
      });
      const expanded = await api.http.get(`${path}?expand=transaction,flow`).set(tenant.auth).expect(200);
      expect(expanded.body).toMatchObject({
        flow: { id: f1.id, document_id: document.id },
        transaction: { id: t2.id, amount: { amount: '200.00', currency: 'EUR' } },
      });
      expectError(await api.http.get(`${path}?expand=flows`).set(tenant.auth), 400, 'invalid_query_parameter', '/query/expand');
      expectError(await api.http.get(`${path}?page_size=1`).set(tenant.auth), 400, 'invalid_query_parameter', '/query/page_size');
    });

    it("answers 403 for another company's reconciliation, whether read or listed", async () => {
      expectError(await api.http.get(`/api/v1/companies/${tenant.companyId}/reconciliations/${foreignReconciliation.id}`).set(tenant.auth), 403, 'forbidden');
      expectError(await api.http.get(`/api/v1/companies/${tenant.companyId}/reconciliations/${r1.id}?expand=flow`).set(rossi.auth), 403, 'forbidden');
    });
  });
});
