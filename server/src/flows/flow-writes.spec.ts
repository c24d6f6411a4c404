import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Account } from '../accounts/account.entity.js';
import { DomainEvent } from '../common/events/event.entity.js';
import type { Document } from '../documents/document.entity.js';
import { reconciliationViolations } from '../reconciliations/reconciliation-invariants.js';
import type { Flow } from './flow.entity.js';

describe('flow writes', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let fixtures: Fixtures;
  let account: Account;
  let foreignDocument: Document;
  let foreignFlow: Flow;
  let company: string;
  let serial = 0;

  const UNKNOWN = '7e1d0000-0000-4000-8000-000000000000';

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    account = await fixtures.account();
    const verdiFixtures = new Fixtures(api.db, verdi.companyId);
    foreignDocument = await verdiFixtures.document({ grossAmount: '5000.00' });
    foreignFlow = await verdiFixtures.flow(foreignDocument, { amount: '100.00' });
    company = `/api/v1/companies/${rossi.companyId}`;
  });

  afterAll(() => api.close());

  const document = (values: Partial<Document> = {}) => fixtures.document({ number: `FV-2026/${++serial}`, grossAmount: '1220.00', ...values });
  const flowsOf = (documentId: string) => `${company}/documents/${documentId}/flows`;
  const create = (documentId: string, body: unknown) =>
    api.http
      .post(flowsOf(documentId))
      .set(rossi.auth)
      .send(body as object);
  const remove = (documentId: string, flowId: string) => api.http.delete(`${flowsOf(documentId)}/${flowId}`).set(rossi.auth);
  const events = (documentId: string) =>
    api.db
      .getRepository(DomainEvent)
      .createQueryBuilder('e')
      .where(`e.payload->>'id' = :documentId`, { documentId })
      .orderBy('e.createdAt', 'ASC')
      .addOrderBy('e.id', 'ASC')
      .getMany();
  const eur = (amount: string) => ({ amount, currency: 'EUR' });

  describe('POST', () => {
    it('adds a TO_PAY flow in the document currency (201), recording document.updated with the document and its new flow', async () => {
      const invoice = await document();
      const response = await create(invoice.id, { amount: eur('620.00'), expected_payment_date: '2026-04-30', payment_method: 'RIBA' }).expect(201);
      expect(response.body).toEqual({
        id: expect.any(String),
        document_id: invoice.id,
        amount: eur('620.00'),
        paid_amount: eur('0'),
        payment_status: 'TO_PAY',
        payment_method: 'RIBA',
        expected_payment_date: '2026-04-30',
        payment_date: null,
        created_at: expect.any(String),
      });
      expect(
        (
          await api.http
            .get(`${flowsOf(invoice.id)}/${response.body.id}`)
            .set(rossi.auth)
            .expect(200)
        ).body,
      ).toEqual(response.body);
      const recorded = await events(invoice.id);
      expect(recorded.map((e) => [e.type, e.payload.version])).toEqual([['document.updated', 2]]);
      expect(recorded[0].payload.flows).toEqual([response.body]);
      // Optional members left out are null.
      const bare = await create(invoice.id, { amount: eur('600') }).expect(201);
      expect(bare.body).toMatchObject({ amount: eur('600'), payment_method: null, expected_payment_date: null, payment_status: 'TO_PAY' });
      const listed = await api.http.get(flowsOf(invoice.id)).set(rossi.auth).expect(200);
      expect(listed.body.data.map((f: { id: string }) => f.id).sort()).toEqual([response.body.id, bare.body.id].sort());
      expect((await events(invoice.id)).map((e) => e.payload.version)).toEqual([2, 3]);
    });

    it("refuses flows that would total more than the document's gross amount with 422 flows_exceed_gross_amount, saying what is left", async () => {
      const invoice = await document();
      await fixtures.flow(invoice, { amount: '1000.00' });
      expectError(
        await create(invoice.id, { amount: eur('220.01') }),
        422,
        'flows_exceed_gross_amount',
        '/amount/amount',
        "The document's flows would total 1220.01 EUR, more than its gross amount of 1220.00 EUR; 220.00 EUR is left for new or larger flows.",
      );
      expect(await events(invoice.id)).toHaveLength(0);
      // Exactly the gross amount is fine; after that nothing is left.
      await create(invoice.id, { amount: eur('220.00') }).expect(201);
      expectError(await create(invoice.id, { amount: eur('0.000001') }), 422, 'flows_exceed_gross_amount', '/amount/amount', /; 0\.00 EUR is left/);
    });

    it('holds credit notes to their gross amount (stored without a sign, as every amount)', async () => {
      const note = await document({ type: 'CREDIT_NOTE', grossAmount: '300.00', vatAmount: '54.10' });
      await create(note.id, { amount: eur('300.00') }).expect(201);
      expectError(
        await create(note.id, { amount: eur('0.01') }),
        422,
        'flows_exceed_gross_amount',
        '/amount/amount',
        "The document's flows would total 300.01 EUR, more than its gross amount of 300.00 EUR; 0.00 EUR is left for new or larger flows.",
      );
    });

    it('lets concurrent creations through only up to the gross amount', async () => {
      const invoice = await document({ grossAmount: '1000.00' });
      const answers = await Promise.all(Array.from({ length: 15 }, () => create(invoice.id, { amount: eur('100.00') })));
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(10).fill(201), ...Array(5).fill(422)]);
      const [{ total }] = await api.db.query('SELECT sum(amount)::text AS total FROM flows WHERE document_id = $1', [invoice.id]);
      expect(total).toBe('1000.00');
      expect((await events(invoice.id)).map((e) => e.payload.version)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    });

    it('refuses every bad member with its pointer, recording nothing', async () => {
      const invoice = await document({ currency: 'EUR' });
      const refused = async (body: unknown, status: number, code: Parameters<typeof expectError>[2], pointer: string, detail?: string | RegExp) =>
        expectError(await create(invoice.id, body), status, code, pointer, detail);
      await refused({}, 400, 'bad_request', '/amount', 'amount is required');
      await refused({ amount: '100.00' }, 400, 'bad_request', '/amount');
      await refused({ amount: { currency: 'EUR' } }, 400, 'bad_request', '/amount/amount');
      await refused({ amount: { amount: 100, currency: 'EUR' } }, 400, 'bad_request', '/amount/amount');
      await refused({ amount: eur('-10.00') }, 422, 'unprocessable_entity', '/amount/amount');
      await refused({ amount: eur('1.220,00') }, 422, 'unprocessable_entity', '/amount/amount');
      await refused({ amount: eur('0') }, 422, 'unprocessable_entity', '/amount/amount', 'amount must be greater than zero.');
      await refused({ amount: eur('0.000000') }, 422, 'unprocessable_entity', '/amount/amount', 'amount must be greater than zero.');
      await refused({ amount: { amount: '10.00', currency: 'eur' } }, 422, 'unprocessable_entity', '/amount/currency');
      await refused(
        { amount: { amount: '10.00', currency: 'USD' } },
        422,
        'currency_mismatch',
        '/amount/currency',
        "The flow's currency must be the document's (EUR), got USD.",
      );
      await refused({ amount: eur('10.00'), expected_payment_date: '2026-02-30' }, 422, 'unprocessable_entity', '/expected_payment_date');
      await refused({ amount: eur('10.00'), expected_payment_date: '30/04/2026' }, 422, 'unprocessable_entity', '/expected_payment_date');
      await refused({ amount: eur('10.00'), expected_payment_date: 20260430 }, 400, 'bad_request', '/expected_payment_date');
      await refused({ amount: eur('10.00'), payment_method: 'transfer' }, 422, 'unprocessable_entity', '/payment_method');
      await refused({ amount: eur('10.00'), payment_method: 'TRANSFER\u0000' }, 422, 'unprocessable_entity', '/payment_method');
      await refused({ amount: eur('10.00'), payment_status: 'PAID' }, 400, 'bad_request', '/payment_status');
      await refused({ amount: eur('10.00'), document_id: invoice.id }, 400, 'bad_request', '/document_id');
      await refused({ amount: eur(`1${'0'.repeat(100_000)}`) }, 422, 'unprocessable_entity', '/amount/amount');
      await refused({ amount: eur('10.00'), payment_method: 'x'.repeat(500_000) }, 422, 'unprocessable_entity', '/payment_method');
      await refused([{ amount: eur('10.00') }], 400, 'bad_request', '');
      expect(await api.db.query('SELECT id FROM flows WHERE document_id = $1', [invoice.id])).toEqual([]);
      expect(await events(invoice.id)).toHaveLength(0);
    });

    it("answers 404 for an unknown document and 403 for another company's", async () => {
      expectError(await create(UNKNOWN, { amount: eur('10.00') }), 404, 'not_found', undefined, 'Document was not found.');
      expectError(await create('x'.repeat(300), { amount: eur('10.00') }), 404, 'not_found');
      expectError(await create(foreignDocument.id, { amount: eur('10.00') }), 403, 'forbidden');
      expect(await api.db.query('SELECT count(*)::int AS n FROM flows WHERE document_id = $1', [foreignDocument.id])).toEqual([{ n: 1 }]);
      expect(await api.db.getRepository(DomainEvent).countBy({ companyId: verdi.companyId })).toBe(0);
    });
  });

  describe('PATCH amount against the gross amount', () => {
    const patch = (flow: Flow, amount: string) =>
      api.http
        .patch(`${flowsOf(flow.documentId)}/${flow.id}`)
        .set(rossi.auth)
        .send({ amount: eur(amount) });

    it('refuses a larger amount that would bring the flows above the gross amount; a smaller one always passes', async () => {
      const invoice = await document();
      const a = await fixtures.flow(invoice, { amount: '600.00' });
      await fixtures.flow(invoice, { amount: '620.00' });
      expectError(
        await patch(a, '600.01'),
        422,
        'flows_exceed_gross_amount',
        '/amount/amount',
        "The document's flows would total 1220.01 EUR, more than its gross amount of 1220.00 EUR; 600.00 EUR is left for new or larger flows.",
      );
      expect(await events(invoice.id)).toHaveLength(0);
      await patch(a, '500.00').expect(200);
      await patch(a, '600.00').expect(200);
      // Flows stored above the gross amount (written before the rule) can still be lowered, not raised.
      await api.db.query('UPDATE flows SET amount = 900 WHERE id = $1', [a.id]);
      await patch(a, '800.00').expect(200);
      expectError(await patch(a, '850.00'), 422, 'flows_exceed_gross_amount', '/amount/amount');
    });
  });

  describe('DELETE', () => {
    it('deletes a flow (204) and records document.updated without it; again is a 404 and records nothing', async () => {
      const invoice = await document();
      const kept = await fixtures.flow(invoice, { amount: '600.00' });
      const gone = await fixtures.flow(invoice, { amount: '620.00' });
      await remove(invoice.id, gone.id).expect(204);
      expectError(await api.http.get(`${flowsOf(invoice.id)}/${gone.id}`).set(rossi.auth), 404, 'not_found', undefined, 'Flow was not found.');
      const recorded = await events(invoice.id);
      expect(recorded.map((e) => [e.type, e.payload.version])).toEqual([['document.updated', 2]]);
      expect((recorded[0].payload.flows as Array<{ id: string }>).map((f) => f.id)).toEqual([kept.id]);
      expectError(await remove(invoice.id, gone.id), 404, 'not_found', undefined, 'Flow was not found.');
      expect(await events(invoice.id)).toHaveLength(1);
      // What it took is free for a new flow.
      await create(invoice.id, { amount: eur('620.00') }).expect(201);
    });

    it('refuses a reconciled flow with 409 flow_reconciled until its reconciliations are deleted', async () => {
      const invoice = await document();
      const flow = await fixtures.flow(invoice, { amount: '1220.00' });
      const payment = await fixtures.transaction(account, { amount: '500.00' });
      const link = await api.http.post(`${company}/reconciliations`).set(rossi.auth).send({ flow_id: flow.id, transaction_id: payment.id }).expect(201);
      const before = await events(invoice.id);
      expectError(
        await remove(invoice.id, flow.id),
        409,
        'flow_reconciled',
        undefined,
        'The flow is reconciled (its reconciliations allocate 500.00 EUR to it); delete its reconciliations before deleting it.',
      );
      expect(await events(invoice.id)).toHaveLength(before.length);
      await api.http.delete(`${company}/reconciliations/${link.body.id}`).set(rossi.auth).expect(204);
      await remove(invoice.id, flow.id).expect(204);
      expect(await reconciliationViolations(api.db.manager, rossi.companyId, { paidByHand: true })).toEqual([]);
    });

    it("answers 404 for unknown ids and for a flow of another document, 403 for another company's", async () => {
      const invoice = await document();
      const other = await document();
      const otherFlow = await fixtures.flow(other, { amount: '10.00' });
      expectError(await remove(invoice.id, UNKNOWN), 404, 'not_found', undefined, 'Flow was not found.');
      expectError(await remove(invoice.id, '%00'), 404, 'not_found');
      expectError(await remove(UNKNOWN, otherFlow.id), 404, 'not_found', undefined, 'Document was not found.');
      expectError(await remove(invoice.id, otherFlow.id), 404, 'not_found', undefined, 'Flow was not found.');
      expectError(await remove(foreignDocument.id, foreignFlow.id), 403, 'forbidden');
      expectError(await remove(invoice.id, foreignFlow.id), 403, 'forbidden');
      expect(await api.db.query('SELECT id FROM flows WHERE id = ANY($1::uuid[])', [[otherFlow.id, foreignFlow.id]])).toHaveLength(2);
      expect(await events(invoice.id)).toHaveLength(0);
      expect(await events(other.id)).toHaveLength(0);
    });

    it('serialises with reconciliations of the same flow: the flow is either deleted unreconciled or reconciled and kept', async () => {
      for (let round = 0; round < 5; round++) {
        const invoice = await document();
        const flow = await fixtures.flow(invoice, { amount: '1220.00' });
        const payment = await fixtures.transaction(account, { amount: '1220.00' });
        const [deleted, reconciled] = await Promise.all([
          remove(invoice.id, flow.id),
          api.http.post(`${company}/reconciliations`).set(rossi.auth).send({ flow_id: flow.id, transaction_id: payment.id }),
        ]);
        expect([
          [204, 404],
          [409, 201],
        ]).toContainEqual([deleted.status, reconciled.status]);
        expect(await reconciliationViolations(api.db.manager, rossi.companyId, { paidByHand: true })).toEqual([]);
      }
    });
  });
});
