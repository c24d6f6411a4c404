import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { DomainEvent } from '../common/events/event.entity.js';
import { todayInRome } from '../common/validation/calendar-date.js';
import type { Document } from '../documents/document.entity.js';
import type { Flow } from './flow.entity.js';

describe('flows', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let fixtures: Fixtures;
  let invoice: Document;
  let other: Document;
  let foreignDocument: Document;
  let first: Flow;
  let second: Flow;
  let undated: Flow;
  let paid: Flow;
  let reconciled: Flow;
  let otherFlow: Flow;
  let foreignFlow: Flow;
  let base: string;

  const at = (iso: string) => new Date(iso);

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    invoice = await fixtures.document({ number: 'FV-2026/0010', grossAmount: '3000.00', vatAmount: '540.98' });
    other = await fixtures.document({ number: 'FV-2026/0011' });
    undated = await fixtures.flow(invoice, { amount: '500.00', expectedPaymentDate: null, paymentMethod: null, createdAt: at('2026-03-01T10:00:00Z') });
    second = await fixtures.flow(invoice, { amount: '1000.00', expectedPaymentDate: '2026-05-31', createdAt: at('2026-03-01T10:00:00Z') });
    first = await fixtures.flow(invoice, { amount: '1000.00', expectedPaymentDate: '2026-04-30', createdAt: at('2026-03-01T10:00:02Z') });
    paid = await fixtures.flow(invoice, {
      amount: '250.00',
      expectedPaymentDate: '2026-04-30',
      paymentStatus: 'PAID',
      paymentDate: '2026-04-28',
      paymentMethod: 'CASH',
      createdAt: at('2026-03-01T10:00:01Z'),
    });
    reconciled = await fixtures.flow(invoice, {
      amount: '250.00',
      expectedPaymentDate: '2026-06-30',
      paymentStatus: 'PAID',
      paymentDate: '2026-06-29',
      createdAt: at('2026-03-01T10:00:00Z'),
    });
    const account = await fixtures.account();
    await fixtures.reconciliation(reconciled, await fixtures.transaction(account, { amount: '250.00', date: '2026-06-29' }));
    reconciled.paidAmount = '250.00';
    otherFlow = await fixtures.flow(other);
    const verdiFixtures = new Fixtures(api.db, verdi.companyId);
    foreignDocument = await verdiFixtures.document();
    foreignFlow = await verdiFixtures.flow(foreignDocument);
    base = `/api/v1/companies/${rossi.companyId}/documents/${invoice.id}/flows`;
  });

  afterAll(() => api.close());

  const body = (flow: Flow, changes: Record<string, unknown> = {}) => ({
    id: flow.id,
    document_id: flow.documentId,
    amount: { amount: flow.amount, currency: 'EUR' },
    paid_amount: { amount: flow.paidAmount, currency: 'EUR' },
    payment_status: flow.paymentStatus,
    payment_method: flow.paymentMethod,
    expected_payment_date: flow.expectedPaymentDate,
    payment_date: flow.paymentDate,
    created_at: flow.createdAt.toISOString(),
    ...changes,
  });

  const eventsOf = (documentId: string) =>
    api.db
      .getRepository(DomainEvent)
      .createQueryBuilder('e')
      .where(`e.payload->>'id' = :documentId`, { documentId })
      .orderBy('e.createdAt')
      .addOrderBy('e.id')
      .getMany();

  describe('list and get', () => {
    it("lists the document's flows by expected payment date (undated last), then created_at, then id", async () => {
      const response = await api.http.get(base).set(rossi.auth).expect(200);
      expect(response.body).toEqual({
        data: [body(paid), body(first), body(second), body(reconciled), body(undated)],
        page: { cursor: null, size: 25 },
      });
    });

    it('pages one flow at a time across the undated flow', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const response: Response = await api.http
          .get(`${base}?page_size=1${cursor ? `&cursor=${cursor}` : ''}`)
          .set(rossi.auth)
          .expect(200);
        expect(response.body.data).toHaveLength(1);
        seen.push(...ids(response));
        cursor = response.body.page.cursor;
      } while (cursor);
      expect(seen).toEqual([paid.id, first.id, second.id, reconciled.id, undated.id]);
    });

    it('declares no filter, sort or expansion', async () => {
      expectError(await api.http.get(`${base}?filter[payment_status]=PAID`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/filter[payment_status]');
      expectError(await api.http.get(`${base}?sort=amount`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/sort');
      expectError(await api.http.get(`${base}?expand=document`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/expand');
    });

    it('reads one flow', async () => {
      expect((await api.http.get(`${base}/${paid.id}`).set(rossi.auth).expect(200)).body).toEqual(body(paid));
    });

    it('answers 404 for unknown documents and flows, and for a flow of another document; 403 across companies', async () => {
      const company = `/api/v1/companies/${rossi.companyId}`;
      expectError(
        await api.http.get(`${company}/documents/7e1d0000-0000-4000-8000-000000000000/flows`).set(rossi.auth),
        404,
        'not_found',
        undefined,
        'Document was not found.',
      );
      expectError(await api.http.get(`${base}/7e1d0000-0000-4000-8000-000000000000`).set(rossi.auth), 404, 'not_found', undefined, 'Flow was not found.');
      expectError(await api.http.get(`${base}/${otherFlow.id}`).set(rossi.auth), 404, 'not_found', undefined, 'Flow was not found.');
      expectError(await api.http.get(`${company}/documents/${foreignDocument.id}/flows`).set(rossi.auth), 403, 'forbidden');
      expectError(await api.http.get(`${company}/documents/${foreignDocument.id}/flows/${foreignFlow.id}`).set(rossi.auth), 403, 'forbidden');
      expectError(await api.http.get(`${base}/${foreignFlow.id}`).set(rossi.auth), 403, 'forbidden');
      expectError(await api.http.get(`${base}/${paid.id}?expand=document`).set(rossi.auth), 400, 'invalid_query_parameter', '/query/expand');
    });
  });

  describe('PATCH', () => {
    const patch = (flowId: string, payload: unknown, documentId = invoice.id) =>
      api.http
        .patch(`/api/v1/companies/${rossi.companyId}/documents/${documentId}/flows/${flowId}`)
        .set(rossi.auth)
        .send(payload as object);

    /** Applies a valid change and checks it was stored and announced by exactly one document.updated event. */
    async function change(flow: Flow, payload: Record<string, unknown>, expected: Record<string, unknown>) {
      const before = await eventsOf(flow.documentId);
      const response = await patch(flow.id, payload, flow.documentId).expect(200);
      expect(response.body).toEqual({ ...body(flow), ...expected });
      expect(
        (await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${flow.documentId}/flows/${flow.id}`).set(rossi.auth).expect(200)).body,
      ).toEqual(response.body);
      const after = await eventsOf(flow.documentId);
      expect(after).toHaveLength(before.length + 1);
      const event = after.at(-1)!;
      expect(event).toMatchObject({ type: 'document.updated', companyId: rossi.companyId });
      expect(event.payload).toMatchObject({ id: flow.documentId, number: expect.any(String) });
      expect((event.payload.flows as Array<{ id: string }>).find((f) => f.id === flow.id)).toEqual(response.body);
      Object.assign(flow, {
        amount: response.body.amount.amount,
        paymentStatus: response.body.payment_status,
        paymentMethod: response.body.payment_method,
        expectedPaymentDate: response.body.expected_payment_date,
        paymentDate: response.body.payment_date,
      });
      return response;
    }

    /** A refused change leaves the flow as it was and records no event. */
    async function refused(flow: Flow, payload: unknown, status: number, code: Parameters<typeof expectError>[2], pointer: string) {
      const before = await eventsOf(flow.documentId);
      expectError(await patch(flow.id, payload), status, code, pointer);
      expect(await eventsOf(flow.documentId)).toHaveLength(before.length);
      expect((await api.http.get(`${base}/${flow.id}`).set(rossi.auth).expect(200)).body).toEqual(body(flow));
    }

    it("changes the amount in the document's currency", async () => {
      await change(first, { amount: { amount: '900.5', currency: 'EUR' } }, { amount: { amount: '900.5', currency: 'EUR' } });
      await change(first, { amount: { amount: '0', currency: 'EUR' } }, { amount: { amount: '0', currency: 'EUR' } });
      // The largest amount, on a document whose gross amount allows it (a document's flows total at most its gross).
      const large = await fixtures.document({ number: 'FV-2026/0012', grossAmount: '999999999999999.999999' });
      const only = await fixtures.flow(large, { amount: '1.00' });
      await change(only, { amount: { amount: '999999999999999.999999', currency: 'EUR' } }, { amount: { amount: '999999999999999.999999', currency: 'EUR' } });
    });

    it('changes the expected payment date and the payment method, and clears them with null', async () => {
      await change(first, { expected_payment_date: '2028-02-29' }, { expected_payment_date: '2028-02-29' });
      await change(first, { expected_payment_date: null, payment_method: 'RIBA' }, { expected_payment_date: null, payment_method: 'RIBA' });
      for (const method of ['CARD', 'CASH', 'CHECK', 'DEFERRED', 'TAX_FORM', 'FISCAL_CREDIT', 'OTHER', 'POSTAL', 'SDD', 'TRANSFER']) {
        await change(first, { payment_method: method }, { payment_method: method });
      }
      await change(first, { payment_method: null }, { payment_method: null });
    });

    it('marks a flow PAID on a given date, or today in Rome without one; TO_PAY clears the date', async () => {
      await change(second, { payment_status: 'PAID', payment_date: '2026-05-30' }, { payment_status: 'PAID', payment_date: '2026-05-30' });
      await change(second, { payment_date: '2026-05-29' }, { payment_date: '2026-05-29' });
      await change(second, { payment_method: 'CARD' }, { payment_method: 'CARD', payment_status: 'PAID', payment_date: '2026-05-29' });
      await change(second, { payment_status: 'TO_PAY' }, { payment_status: 'TO_PAY', payment_date: null });
      await change(second, { payment_status: 'PAID' }, { payment_status: 'PAID', payment_date: todayInRome() });
      await change(second, { payment_status: 'TO_PAY', payment_date: null }, { payment_status: 'TO_PAY', payment_date: null });
    });

    it('refuses a payment date on a flow TO_PAY and a PAID flow without one (422, pointer)', async () => {
      await refused(undated, { payment_date: '2026-04-01' }, 422, 'unprocessable_entity', '/payment_date');
      await refused(undated, { payment_status: 'TO_PAY', payment_date: '2026-04-01' }, 422, 'unprocessable_entity', '/payment_date');
      await refused(paid, { payment_date: null }, 422, 'unprocessable_entity', '/payment_date');
      await refused(undated, { payment_status: 'PAID', payment_date: null }, 422, 'unprocessable_entity', '/payment_date');
    });

    it('keeps a reconciled flow PAID: TO_PAY is 422 invalid_state', async () => {
      await refused(reconciled, { payment_status: 'TO_PAY' }, 422, 'invalid_state', '/payment_status');
      await refused(reconciled, { payment_status: 'TO_PAY', payment_date: null, payment_method: 'CASH' }, 422, 'invalid_state', '/payment_status');
      // Other changes to a reconciled flow are allowed.
      await change(reconciled, { payment_method: 'SDD' }, { payment_method: 'SDD', payment_status: 'PAID', payment_date: '2026-06-29' });
    });

    it('refuses another currency with currency_mismatch', async () => {
      await refused(undated, { amount: { amount: '500.00', currency: 'USD' } }, 422, 'currency_mismatch', '/amount/currency');
    });

    it('refuses values that break the money, enum and date rules with 422 and a pointer', async () => {
      await refused(undated, { amount: { amount: '-1', currency: 'EUR' } }, 422, 'unprocessable_entity', '/amount/amount');
      await refused(undated, { amount: { amount: '1,50', currency: 'EUR' } }, 422, 'unprocessable_entity', '/amount/amount');
      await refused(undated, { amount: { amount: '', currency: 'EUR' } }, 422, 'unprocessable_entity', '/amount/amount');
      await refused(undated, { amount: { amount: '1e3', currency: 'EUR' } }, 422, 'unprocessable_entity', '/amount/amount');
      await refused(undated, { amount: { amount: '9999999999999999999999', currency: 'EUR' } }, 422, 'unprocessable_entity', '/amount/amount');
      await refused(undated, { amount: { amount: '1.1234567', currency: 'EUR' } }, 422, 'unprocessable_entity', '/amount/amount');
      await refused(undated, { amount: { amount: '10.00', currency: 'EURO' } }, 422, 'unprocessable_entity', '/amount/currency');
      await refused(undated, { amount: { amount: '10.00', currency: 'ZZZ' } }, 422, 'unprocessable_entity', '/amount/currency');
      await refused(undated, { amount: { amount: '10.00', currency: 'eur' } }, 422, 'unprocessable_entity', '/amount/currency');
      await refused(undated, { payment_method: 'BITCOIN' }, 422, 'unprocessable_entity', '/payment_method');
      await refused(undated, { payment_method: 'transfer' }, 422, 'unprocessable_entity', '/payment_method');
      await refused(undated, { payment_status: 'PAYED' }, 422, 'unprocessable_entity', '/payment_status');
      await refused(undated, { payment_status: 'paid' }, 422, 'unprocessable_entity', '/payment_status');
      await refused(undated, { expected_payment_date: '2026-02-30' }, 422, 'unprocessable_entity', '/expected_payment_date');
      await refused(undated, { expected_payment_date: '30/04/2026' }, 422, 'unprocessable_entity', '/expected_payment_date');
      await refused(undated, { expected_payment_date: '2026-04-30T00:00:00Z' }, 422, 'unprocessable_entity', '/expected_payment_date');
      await refused(paid, { payment_date: '2026-13-01' }, 422, 'unprocessable_entity', '/payment_date');
    });

    it('reports every offending member at once', async () => {
      const response = await patch(undated.id, { amount: { amount: '-5', currency: 'EURO' }, payment_method: 'BITCOIN' }).expect(422);
      expect(response.body.errors.map((e: { code: string; source: { pointer: string } }) => [e.code, e.source.pointer]).sort()).toEqual([
        ['unprocessable_entity', '/amount/amount'],
        ['unprocessable_entity', '/amount/currency'],
        ['unprocessable_entity', '/payment_method'],
      ]);
    });

    it('answers 400 for wrong JSON types, missing or unknown members, with a pointer', async () => {
      await refused(undated, { amount: { amount: 12.5, currency: 'EUR' } }, 400, 'bad_request', '/amount/amount');
      // eslint-disable-next-line no-loss-of-precision -- a number too large for a double, as a client might send
      await refused(undated, { amount: { amount: 9999999999999999999999, currency: 'EUR' } }, 400, 'bad_request', '/amount/amount');
      await refused(undated, { amount: { amount: '12.50' } }, 400, 'bad_request', '/amount/currency');
      await refused(undated, { amount: { currency: 'EUR' } }, 400, 'bad_request', '/amount/amount');
      await refused(undated, { amount: '12.50' }, 400, 'bad_request', '/amount');
      await refused(undated, { amount: null }, 400, 'bad_request', '/amount');
      await refused(undated, { amount: { amount: '12.50', currency: 'EUR', vat: '2.75' } }, 400, 'bad_request', '/amount/vat');
      await refused(undated, { payment_status: null }, 400, 'bad_request', '/payment_status');
      await refused(undated, { payment_method: 3 }, 400, 'bad_request', '/payment_method');
      await refused(undated, { expected_payment_date: 20260430 }, 400, 'bad_request', '/expected_payment_date');
      await refused(undated, { status: 'PAID' }, 400, 'bad_request', '/status');
      await refused(undated, {}, 400, 'bad_request', '');
      await refused(undated, ['PAID'], 400, 'bad_request', '');
    });

    it('records nothing for a change to the values the flow already has: no event, same updated_at and version', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0310' });
      const flow = await fixtures.flow(document, { amount: '1200.50', paymentMethod: 'RIBA', expectedPaymentDate: '2026-04-30' });
      const path = `/api/v1/companies/${rossi.companyId}/documents/${document.id}`;
      const stored = (await api.http.get(path).set(rossi.auth).expect(200)).body;
      for (const payload of [
        { amount: { amount: '1200.50', currency: 'EUR' } },
        { amount: { amount: '1200.5', currency: 'EUR' }, payment_method: 'RIBA' },
        { expected_payment_date: '2026-04-30', payment_status: 'TO_PAY' },
        { payment_status: 'TO_PAY', payment_date: null },
      ]) {
        const response = await patch(flow.id, payload, document.id).expect(200);
        expect(response.body).toEqual(body(flow));
      }
      expect(await eventsOf(document.id)).toHaveLength(0);
      expect((await api.http.get(path).set(rossi.auth).expect(200)).body).toMatchObject({ updated_at: stored.updated_at, version: stored.version });
    });

    it('applies parallel changes one after the other: the newest event holds the flow as stored, versions count up', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0311' });
      const flow = await fixtures.flow(document, { amount: '100.00' });
      const methods = ['CARD', 'RIBA', 'TRANSFER', 'SDD', 'CHECK'] as const;
      const flowPath = `/api/v1/companies/${rossi.companyId}/documents/${document.id}/flows/${flow.id}`;
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          patch(flow.id, { amount: { amount: `${100 + i}.00`, currency: 'EUR' }, payment_method: methods[i % methods.length] }, document.id),
        ),
      );
      for (const response of responses) expect(response.status).toBe(200);
      const stored = (await api.http.get(flowPath).set(rossi.auth).expect(200)).body;
      const document_ = (await api.http.get(`/api/v1/companies/${rossi.companyId}/documents/${document.id}`).set(rossi.auth).expect(200)).body;
      const recorded = await eventsOf(document.id);
      const newest = recorded.at(-1)!;
      expect((newest.payload.flows as Array<{ id: string }>).find((f) => f.id === flow.id)).toEqual(stored);
      expect(newest.payload).toMatchObject({ updated_at: document_.updated_at, version: document_.version });
      expect(recorded.map((e) => e.payload.version)).toEqual(recorded.map((_, i) => 2 + i));
      expect(document_.version).toBe(1 + recorded.length);
      for (const [i, event] of recorded.entries()) {
        if (i > 0) expect(Date.parse(event.payload.updated_at as string)).toBeGreaterThan(Date.parse(recorded[i - 1].payload.updated_at as string));
      }
    });

    it('answers 404 for an unknown flow or a flow of another document, 403 across companies', async () => {
      expectError(await patch('7e1d0000-0000-4000-8000-000000000000', { payment_method: 'CASH' }), 404, 'not_found', undefined, 'Flow was not found.');
      expectError(await patch(otherFlow.id, { payment_method: 'CASH' }), 404, 'not_found', undefined, 'Flow was not found.');
      expectError(await patch(foreignFlow.id, { payment_method: 'CASH' }), 403, 'forbidden');
      expectError(await patch(foreignFlow.id, { payment_method: 'CASH' }, foreignDocument.id), 403, 'forbidden');
      expect(await eventsOf(other.id)).toHaveLength(0);
      expect(await eventsOf(foreignDocument.id)).toHaveLength(0);
      const theirs = await api.http
        .get(`/api/v1/companies/${verdi.companyId}/documents/${foreignDocument.id}/flows/${foreignFlow.id}`)
        .set(verdi.auth)
        .expect(200);
      expect(theirs.body.payment_method).toBe('TRANSFER');
    });
  });
});
