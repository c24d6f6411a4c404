import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Account } from '../accounts/account.entity.js';
import type { Category } from '../categories/category.entity.js';
import { DomainEvent } from '../common/events/event.entity.js';
import { reconciliationViolations } from '../reconciliations/reconciliation-invariants.js';
import type { Document } from './document.entity.js';
import type { DocumentStatus } from './document.enums.js';

describe('document writes', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let fixtures: Fixtures;
  let verdiFixtures: Fixtures;
  let base: string;
  let account: Account;
  let utenze: Category;
  let energia: Category;
  let telefonia: Category;
  let consulenze: Category;
  let legali: Category;
  let foreignCategory: Category;
  let foreignSubcategory: Category;
  let foreign: Document;

  const UNKNOWN = '0d6f2a51-0000-4000-8000-000000000000';
  let serial = 0;

  beforeAll(async () => {
    api = await startApi();
    rossi = await createTenant(api, 'Rossi Forniture S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    account = await fixtures.account();
    utenze = await fixtures.category({ name: 'Utenze' });
    energia = await fixtures.category({ name: 'Energia', parentId: utenze.id });
    telefonia = await fixtures.category({ name: 'Telefonia', parentId: utenze.id });
    consulenze = await fixtures.category({ name: 'Consulenze' });
    legali = await fixtures.category({ name: 'Legali', parentId: consulenze.id });
    verdiFixtures = new Fixtures(api.db, verdi.companyId);
    foreignCategory = await verdiFixtures.category({ name: 'Utenze' });
    foreignSubcategory = await verdiFixtures.category({ name: 'Energia', parentId: foreignCategory.id });
    foreign = await verdiFixtures.document({ number: 'FV-2026/0001', status: 'DRAFT' });
    base = `/api/v1/companies/${rossi.companyId}/documents`;
  });

  afterAll(() => api.close());

  const events = (documentId: string) =>
    api.db
      .getRepository(DomainEvent)
      .createQueryBuilder('e')
      .where(`e.payload->>'id' = :documentId`, { documentId })
      .orderBy('e.createdAt', 'ASC')
      .addOrderBy('e.id', 'ASC')
      .getMany();
  const patch = (id: string, body: unknown) =>
    api.http
      .patch(`${base}/${id}`)
      .set(rossi.auth)
      .send(body as object);
  const read = async (id: string) => (await api.http.get(`${base}/${id}`).set(rossi.auth).expect(200)).body;
  const remove = (id: string) => api.http.delete(`${base}/${id}`).set(rossi.auth);

  describe('PATCH subcategory_id', () => {
    it('sets category and subcategory together, in one change and one event', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0101' });
      const response = await patch(document.id, { category_id: utenze.id, subcategory_id: energia.id }).expect(200);
      expect(response.body).toMatchObject({
        category_id: utenze.id,
        category: { id: utenze.id, name: 'Utenze' },
        subcategory_id: energia.id,
        subcategory: { id: energia.id, name: 'Energia' },
        version: 2,
      });
      const recorded = await events(document.id);
      expect(recorded.map((e) => [e.type, e.payload.version])).toEqual([['document.updated', 2]]);
      expect(recorded[0].payload).toEqual(response.body);
    });

    it("sets a subcategory of the document's current category on its own, and clears it with null", async () => {
      const document = await fixtures.document({ number: 'FV-2026/0102', categoryId: utenze.id, subcategoryId: energia.id });
      const set = await patch(document.id, { subcategory_id: telefonia.id.toUpperCase() }).expect(200);
      expect(set.body).toMatchObject({ category_id: utenze.id, subcategory_id: telefonia.id, subcategory: { name: 'Telefonia' }, version: 2 });
      const cleared = await patch(document.id, { subcategory_id: null }).expect(200);
      expect(cleared.body).toMatchObject({ category_id: utenze.id, subcategory_id: null, subcategory: null, version: 3 });
      expect((await events(document.id)).map((e) => e.payload.version)).toEqual([2, 3]);
    });

    it('keeps the subcategory when category_id alone names its category, clears it otherwise; null category clears both', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0103', categoryId: utenze.id, subcategoryId: energia.id });
      const same = await patch(document.id, { category_id: utenze.id }).expect(200);
      expect(same.body).toMatchObject({ category_id: utenze.id, subcategory_id: energia.id, version: 1 });
      const other = await patch(document.id, { category_id: consulenze.id }).expect(200);
      expect(other.body).toMatchObject({ category_id: consulenze.id, subcategory_id: null, version: 2 });
      await patch(document.id, { subcategory_id: legali.id }).expect(200);
      const none = await patch(document.id, { category_id: null }).expect(200);
      expect(none.body).toMatchObject({ category_id: null, subcategory_id: null, version: 4 });
    });

    it('refuses a subcategory of another category with 422 subcategory_mismatch at /subcategory_id, changing nothing', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0104', categoryId: utenze.id, subcategoryId: energia.id });
      const bare = await fixtures.document({ number: 'FV-2026/0105' });
      expectError(
        await patch(document.id, { subcategory_id: legali.id }),
        422,
        'subcategory_mismatch',
        '/subcategory_id',
        `The subcategory belongs to category ${consulenze.id}, not to the document's category; send the subcategory's category_id with it.`,
      );
      expectError(
        await patch(document.id, { category_id: consulenze.id, subcategory_id: energia.id }),
        422,
        'subcategory_mismatch',
        '/subcategory_id',
        `The subcategory belongs to category ${utenze.id}, not to the category_id of this request.`,
      );
      expectError(
        await patch(document.id, { category_id: null, subcategory_id: energia.id }),
        422,
        'subcategory_mismatch',
        '/subcategory_id',
        /this request clears the document's category/,
      );
      expectError(await patch(bare.id, { subcategory_id: energia.id }), 422, 'subcategory_mismatch', '/subcategory_id', /the document has no category/);
      // With a change of notes in the same request: nothing of it is applied either.
      expectError(await patch(document.id, { notes: 'x', subcategory_id: legali.id }), 422, 'subcategory_mismatch', '/subcategory_id');
      expect(await read(document.id)).toMatchObject({ category_id: utenze.id, subcategory_id: energia.id, notes: null, version: 1 });
      expect(await read(bare.id)).toMatchObject({ category_id: null, subcategory_id: null, version: 1 });
      expect(await events(document.id)).toHaveLength(0);
    });

    it('refuses a top-level id as subcategory and a subcategory id as category (422), unknown ids (404) and foreign ones (403), with pointers', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0106', categoryId: utenze.id });
      expectError(await patch(document.id, { subcategory_id: utenze.id }), 422, 'unprocessable_entity', '/subcategory_id');
      expectError(await patch(document.id, { category_id: energia.id }), 422, 'unprocessable_entity', '/category_id');
      expectError(await patch(document.id, { subcategory_id: UNKNOWN }), 404, 'not_found', '/subcategory_id', 'Subcategory was not found.');
      expectError(await patch(document.id, { category_id: UNKNOWN, subcategory_id: energia.id }), 404, 'not_found', '/category_id', 'Category was not found.');
      expectError(await patch(document.id, { subcategory_id: foreignSubcategory.id }), 403, 'forbidden', '/subcategory_id');
      expectError(await patch(document.id, { category_id: foreignCategory.id, subcategory_id: foreignSubcategory.id }), 403, 'forbidden', '/category_id');
      expect(await events(document.id)).toHaveLength(0);
    });

    it('answers 400 for a malformed subcategory_id', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0107' });
      expectError(await patch(document.id, { subcategory_id: 'energia' }), 400, 'bad_request', '/subcategory_id', 'subcategory_id must be a uuid or null');
      expectError(await patch(document.id, { subcategory_id: 7 }), 400, 'bad_request', '/subcategory_id');
      expectError(await patch(document.id, { subcategory_id: [energia.id] }), 400, 'bad_request', '/subcategory_id');
      expectError(await patch(document.id, { subcategory_id: `${energia.id}\u0000` }), 422, 'unprocessable_entity', '/subcategory_id', /NUL/);
      expectError(await patch(document.id, {}), 400, 'bad_request', '', 'The body names no member to update; send category_id, subcategory_id or notes.');
      expect(await events(document.id)).toHaveLength(0);
    });
  });

  describe('PATCH notes', () => {
    it('sets notes (up to 1,000 characters, any script) and clears them with null, each change one event', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0201' });
      const set = await patch(document.id, { notes: 'Consegna al magazzino di Bologna' }).expect(200);
      expect(set.body).toMatchObject({ notes: 'Consegna al magazzino di Bologna', version: 2 });
      // 1,000 characters, counted as characters: 🧾 is two UTF-16 code units.
      const longest = `${'à'.repeat(997)}🧾€.`;
      const long = await patch(document.id, { notes: longest }).expect(200);
      expect(long.body.notes).toBe(longest);
      const cleared = await patch(document.id, { notes: null }).expect(200);
      expect(cleared.body).toMatchObject({ notes: null, version: 4 });
      const recorded = await events(document.id);
      expect(recorded.map((e) => [e.payload.notes, e.payload.version])).toEqual([
        ['Consegna al magazzino di Bologna', 2],
        [longest, 3],
        [null, 4],
      ]);
      // The same notes again, or null again, change nothing.
      await patch(document.id, { notes: null }).expect(200);
      await patch(document.id, { notes: 'Pagato in contanti' }).expect(200);
      const again = await patch(document.id, { notes: 'Pagato in contanti' }).expect(200);
      expect(again.body.version).toBe(5);
      expect(await events(document.id)).toHaveLength(4);
      // Filters see the new notes.
      const listed = await api.http.get(`${base}?filter[notes__ilike]=contanti`).set(rossi.auth).expect(200);
      expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([document.id]);
    });

    it('refuses notes that are too long, blank, hold NUL or are not strings, with the pointer, recording nothing', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0202', notes: 'Prima nota' });
      expectError(await patch(document.id, { notes: 'x'.repeat(1001) }), 422, 'unprocessable_entity', '/notes', 'notes must be at most 1000 characters long');
      expectError(
        await patch(document.id, { notes: 'x'.repeat(900_000) }),
        422,
        'unprocessable_entity',
        '/notes',
        'notes must be at most 1000 characters long',
      );
      expectError(await patch(document.id, { notes: '' }), 422, 'unprocessable_entity', '/notes', 'notes must not be empty or blank');
      expectError(await patch(document.id, { notes: ' \n\t ' }), 422, 'unprocessable_entity', '/notes', 'notes must not be empty or blank');
      expectError(
        await patch(document.id, { notes: 'Nota\u0000nascosta' }),
        422,
        'unprocessable_entity',
        '/notes',
        'notes must not contain NUL characters (\\u0000)',
      );
      expectError(await patch(document.id, { notes: 42 }), 400, 'bad_request', '/notes', 'notes must be a string');
      expectError(await patch(document.id, { notes: { text: 'x' } }), 400, 'bad_request', '/notes');
      // Over the body limit the request is refused before it is read.
      expectError(await patch(document.id, { notes: 'x'.repeat(2_000_000) }), 413, 'payload_too_large');
      expect(await read(document.id)).toMatchObject({ notes: 'Prima nota', version: 1 });
      expect(await events(document.id)).toHaveLength(0);
    });

    it('changes notes and classification in one request, as one change', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0203' });
      const response = await patch(document.id, { notes: 'Studio legale', category_id: consulenze.id, subcategory_id: legali.id }).expect(200);
      expect(response.body).toMatchObject({ notes: 'Studio legale', category_id: consulenze.id, subcategory_id: legali.id, version: 2 });
      expect(await events(document.id)).toHaveLength(1);
    });

    it("answers 404 for an unknown document and 403 for another company's, changing nothing", async () => {
      expectError(await patch(UNKNOWN, { notes: 'x' }), 404, 'not_found', undefined, 'Document was not found.');
      expectError(await patch('not-a-uuid', { notes: 'x' }), 404, 'not_found', undefined, 'Document was not found.');
      expectError(await patch(foreign.id, { notes: 'x' }), 403, 'forbidden');
      expectError(await patch(foreign.id, { subcategory_id: foreignSubcategory.id, category_id: foreignCategory.id }), 403, 'forbidden');
      expect((await api.http.get(`/api/v1/companies/${verdi.companyId}/documents/${foreign.id}`).set(verdi.auth).expect(200)).body).toMatchObject({
        notes: null,
        category_id: null,
        version: 1,
      });
      expect(await api.db.getRepository(DomainEvent).countBy({ companyId: verdi.companyId })).toBe(0);
    });
  });

  describe('DELETE', () => {
    it('deletes a draft e-invoice with its flows and reconciliations, giving the transactions their amounts back, and records document.deleted', async () => {
      const draft = await fixtures.document({ number: 'FV-2026/0301', status: 'DRAFT', categoryId: utenze.id, grossAmount: '1220.00' });
      const first = await fixtures.flow(draft, { amount: '600.00' });
      const second = await fixtures.flow(draft, { amount: '620.00' });
      const payment = await fixtures.transaction(account, { amount: '1000.00' });
      // Paid through the API, so the document's versions and events are those of real changes.
      const flowsBase = `${base}/${draft.id}/flows`;
      const reconciled = await api.http
        .post(`/api/v1/companies/${rossi.companyId}/reconciliations`)
        .set(rossi.auth)
        .send({ flow_id: first.id, transaction_id: payment.id })
        .expect(201);
      await api.http
        .post(`/api/v1/companies/${rossi.companyId}/reconciliations`)
        .set(rossi.auth)
        .send({ flow_id: second.id, transaction_id: payment.id, amount: { amount: '400.00', currency: 'EUR' } })
        .expect(201);
      const before = (await api.http.get(`${base}/${draft.id}?expand=category,counterpart,flows,subcategory`).set(rossi.auth).expect(200)).body;
      expect(before.version).toBe(3);
      const allocated = await api.http
        .get(`/api/v1/companies/${rossi.companyId}/transactions/${payment.id}?expand=reconciliations`)
        .set(rossi.auth)
        .expect(200);
      expect(allocated.body.reconciliations).toHaveLength(2);

      await remove(draft.id).expect(204);

      expectError(await api.http.get(`${base}/${draft.id}`).set(rossi.auth), 404, 'not_found', undefined, 'Document was not found.');
      expectError(await api.http.get(flowsBase).set(rossi.auth), 404, 'not_found');
      expectError(await api.http.get(`${flowsBase}/${first.id}`).set(rossi.auth), 404, 'not_found');
      expectError(await api.http.get(`/api/v1/companies/${rossi.companyId}/reconciliations/${reconciled.body.id}`).set(rossi.auth), 404, 'not_found');
      const freed = await api.http.get(`/api/v1/companies/${rossi.companyId}/transactions/${payment.id}?expand=reconciliations`).set(rossi.auth).expect(200);
      expect(freed.body.reconciliations).toEqual([]);
      // The transaction's whole amount can pay another flow again.
      const other = await fixtures.document({ number: 'FV-2026/0302', grossAmount: '1000.00' });
      const otherFlow = await fixtures.flow(other, { amount: '1000.00' });
      const repaid = await api.http
        .post(`/api/v1/companies/${rossi.companyId}/reconciliations`)
        .set(rossi.auth)
        .send({ flow_id: otherFlow.id, transaction_id: payment.id })
        .expect(201);
      expect(repaid.body.amount).toEqual({ amount: '1000.00', currency: 'EUR' });

      const recorded = await events(draft.id);
      expect(recorded.map((e) => [e.type, e.payload.version])).toEqual([
        ['document.updated', 2],
        ['document.updated', 3],
        ['document.deleted', 4],
      ]);
      const deleted = recorded[2];
      // The document as it was, every member expanded, at the next version and the instant of the deletion.
      const { updated_at: deletedAt, version, ...was } = deleted.payload;
      expect({ ...was, version }).toEqual({ ...before, updated_at: undefined, version: 4 });
      expect(deleted.payload).toMatchObject({
        id: draft.id,
        number: 'FV-2026/0301',
        category: { id: utenze.id, name: 'Utenze' },
        flows: [
          expect.objectContaining({ id: first.id, payment_status: 'PAID' }),
          expect.objectContaining({ id: second.id, paid_amount: { amount: '400.00', currency: 'EUR' } }),
        ],
      });
      expect(Date.parse(deletedAt as string)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(deleted.createdAt.toISOString()).toBe(deletedAt);
      expect(deleted.companyId).toBe(rossi.companyId);
      expect(await reconciliationViolations(api.db.manager, rossi.companyId, { paidByHand: true })).toEqual([]);

      // Deleting again finds nothing and records nothing.
      expectError(await remove(draft.id), 404, 'not_found', undefined, 'Document was not found.');
      expect(await events(draft.id)).toHaveLength(3);
    });

    it.each([
      [
        'a document that is not an e-invoice',
        { isEInvoice: false, status: 'CREATED' as DocumentStatus, format: 'FPR12' as const, type: 'BILL' as const, direction: 'RECEIVED' as const },
      ],
      ['a document not known to be an e-invoice', { isEInvoice: null, status: 'DELIVERED' as DocumentStatus }],
      ['a draft credit note', { type: 'CREDIT_NOTE' as const, status: 'DRAFT' as DocumentStatus }],
      // The SDI discarded it: it counts as never issued, so it is corrected and sent again, not cancelled.
      ['an e-invoice the SDI discarded', { isEInvoice: true, status: 'DISCARDED' as DocumentStatus }],
    ])('deletes %s', async (_what, values) => {
      const document = await fixtures.document({ number: `X-${++serial}`, ...values });
      await fixtures.flow(document, { amount: '100.00' });
      await remove(document.id).expect(204);
      expectError(await api.http.get(`${base}/${document.id}`).set(rossi.auth), 404, 'not_found');
      expect((await events(document.id)).map((e) => [e.type, e.payload.version])).toEqual([['document.deleted', 2]]);
      expect(await api.db.query('SELECT id FROM flows WHERE document_id = $1', [document.id])).toEqual([]);
    });

    it.each(['CREATED', 'SENT', 'DELIVERED', 'NOT_DELIVERED', 'REFUSED'] as DocumentStatus[])(
      'refuses an e-invoice in status %s with 409 document_sent_to_sdi, deleting and recording nothing',
      async (status) => {
        const document = await fixtures.document({ number: `FV-2026/${status}`, status, isEInvoice: true });
        const flow = await fixtures.flow(document);
        expectError(
          await remove(document.id),
          409,
          'document_sent_to_sdi',
          undefined,
          `Document FV-2026/${status} is an e-invoice in status ${status}: it went to the SDI and stays in the books. Issue a credit note to cancel it.`,
        );
        expect(await read(document.id)).toMatchObject({ id: document.id, version: 1 });
        expect(await api.db.query('SELECT id FROM flows WHERE id = $1', [flow.id])).toEqual([{ id: flow.id }]);
        expect(await events(document.id)).toHaveLength(0);
      },
    );

    it("answers 404 for an unknown or malformed id and 403 for another company's document, which stays", async () => {
      expectError(await remove(UNKNOWN), 404, 'not_found', undefined, 'Document was not found.');
      expectError(await remove('%00'), 404, 'not_found');
      expectError(await remove('x'.repeat(5000)), 404, 'not_found');
      expectError(await remove(foreign.id), 403, 'forbidden');
      await api.http.get(`/api/v1/companies/${verdi.companyId}/documents/${foreign.id}`).set(verdi.auth).expect(200);
      expect(await api.db.getRepository(DomainEvent).countBy({ companyId: verdi.companyId })).toBe(0);
    });

    it('serialises with concurrent changes: every request either changes the document before the deletion or answers 404', async () => {
      const document = await fixtures.document({ number: 'FV-2026/0303', status: 'DRAFT', grossAmount: '5000.00' });
      const flows = await Promise.all(Array.from({ length: 4 }, () => fixtures.flow(document, { amount: '100.00' })));
      const payment = await fixtures.transaction(account, { amount: '400.00' });
      // The deletions start in the middle, so that some changes come before them and some after.
      const requests = [
        ...flows.map((f) =>
          api.http.post(`/api/v1/companies/${rossi.companyId}/reconciliations`).set(rossi.auth).send({ flow_id: f.id, transaction_id: payment.id }),
        ),
        remove(document.id),
        remove(document.id),
        ...flows.map((f) => api.http.patch(`${base}/${document.id}/flows/${f.id}`).set(rossi.auth).send({ expected_payment_date: '2026-12-31' })),
        api.http
          .post(`${base}/${document.id}/flows`)
          .set(rossi.auth)
          .send({ amount: { amount: '50.00', currency: 'EUR' } }),
        patch(document.id, { notes: 'In corso' }),
      ];
      const answers = await Promise.all(requests);
      for (const answer of answers) expect([200, 201, 204, 404]).toContain(answer.status);
      expect(answers.filter((a) => a.status === 204)).toHaveLength(1);
      const recorded = await events(document.id);
      // One event per change that took effect, the deletion last, versions consecutive.
      const changes = answers.filter((a) => a.status === 200 || a.status === 201).length;
      expect(recorded.map((e) => e.payload.version)).toEqual(recorded.map((_, i) => i + 2));
      expect(recorded).toHaveLength(changes + 1);
      expect(recorded.at(-1)!.type).toBe('document.deleted');
      expect(await api.db.query('SELECT id FROM reconciliations WHERE transaction_id = $1', [payment.id])).toEqual([]);
      expect(await reconciliationViolations(api.db.manager, rossi.companyId, { paidByHand: true })).toEqual([]);
    });
  });
});
