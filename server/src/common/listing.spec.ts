import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import { accountList } from '../accounts/accounts.repository.js';
import { categoryList } from '../categories/categories.repository.js';
import { counterpartList } from '../counterparts/counterparts.repository.js';
import { Document } from '../documents/document.entity.js';
import { DOCUMENT_STATUSES, DOCUMENT_TYPES } from '../documents/document.enums.js';
import { documentList } from '../documents/documents.repository.js';
import { reconciliationList } from '../reconciliations/reconciliations.repository.js';
import { sectionalList } from '../sectionals/sectionals.repository.js';
import { Transaction } from '../transactions/transaction.entity.js';
import { transactionList } from '../transactions/transactions.repository.js';
import { FILTER_OPERATORS, OPERATORS_BY_TYPE, type FieldSpec, type ListSpec } from './listing/list-spec.js';

/**
 * The shared list mechanism, exercised through the documents and transactions lists against an in-memory model of the
 * rows: every filter operator, sorts in both directions with ties and NULLs, and cursor walks that must return every
 * row exactly once in the model's order.
 */
interface DocRow {
  id: string;
  createdAt: string;
  creationDate: string;
  deliveryDate: string | null;
  number: string;
  status: string;
  notes: string | null;
}

const DOCUMENTS = 240;
const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10);

function makeDocuments(): DocRow[] {
  return Array.from({ length: DOCUMENTS }, (_, i) => ({
    id: randomUUID(),
    // Three documents per instant, so created_at has ties.
    createdAt: new Date(Date.UTC(2026, 0, 1, 8, 0, Math.floor(i / 3))).toISOString(),
    creationDate: day((i * 7) % 40),
    // A third are not delivered (NULL); the others share a few dozen instants.
    deliveryDate: i % 3 === 0 ? null : new Date(Date.UTC(2026, 1, 1, (i * 13) % 50)).toISOString(),
    number: `N${String(i % 90).padStart(3, '0')}`,
    status: DOCUMENT_STATUSES[i % DOCUMENT_STATUSES.length],
    notes: i % 4 === 0 ? null : i % 4 === 1 ? '' : `Nota ${i % 10}${i % 5 === 0 ? '_x' : ''}`,
  }));
}

type Term = [keyof DocRow, 'ASC' | 'DESC'];

/** PostgreSQL's order: NULL is the largest value; ties broken by id in the last term's direction. */
function order<T extends { id: string }>(rows: T[], terms: Array<[keyof T, 'ASC' | 'DESC']>): string[] {
  const all = [...terms, ['id', terms.at(-1)?.[1] ?? 'ASC'] as [keyof T, 'ASC' | 'DESC']];
  return [...rows]
    .sort((a, b) => {
      for (const [field, direction] of all) {
        const x = a[field] as unknown;
        const y = b[field] as unknown;
        if (x === y) continue;
        const cmp = x === null ? 1 : y === null ? -1 : typeof x === 'number' ? (x as number) - (y as number) : (x as string) < (y as string) ? -1 : 1;
        return direction === 'ASC' ? cmp : -cmp;
      }
      return 0;
    })
    .map((row) => row.id);
}

const SORT_FIELDS: Record<string, keyof DocRow> = { created_at: 'createdAt', creation_date: 'creationDate', delivery_date: 'deliveryDate', number: 'number' };
const termsOf = (sort: string): Term[] => sort.split(',').map((t) => (t.startsWith('-') ? [SORT_FIELDS[t.slice(1)], 'DESC'] : [SORT_FIELDS[t], 'ASC']));

describe('the shared list mechanism', () => {
  let api: TestApi;
  let rossi: Tenant;
  let docs: DocRow[];
  let base: string;
  let requests = 0;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMIT_POINTS: '100000' });
    rossi = await createTenant(api);
    docs = makeDocuments();
    await api.db.getRepository(Document).insert(
      docs.map((d) => ({
        id: d.id,
        companyId: rossi.companyId,
        number: d.number,
        type: DOCUMENT_TYPES[0],
        status: d.status as Document['status'],
        format: 'FPR12' as const,
        direction: 'ISSUED' as const,
        currency: 'EUR',
        grossAmount: '100.00',
        vatAmount: '18.03',
        creationDate: d.creationDate,
        deliveryDate: d.deliveryDate ? new Date(d.deliveryDate) : null,
        notes: d.notes,
        createdAt: new Date(d.createdAt),
        updatedAt: new Date(d.createdAt),
      })),
    );
    // Another company's documents must never show up in a walk.
    const verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    const verdiFixtures = new Fixtures(api.db, verdi.companyId);
    for (let i = 0; i < 5; i++) await verdiFixtures.document({ number: 'N001', deliveryDate: null });
    base = `/api/v1/companies/${rossi.companyId}/documents`;
  });

  afterAll(() => api.close());

  const get = (query: string, path = base) => {
    requests++;
    return api.http.get(`${path}?${query}`).set(rossi.auth);
  };

  /** Follows page.cursor to the end, checking each page's size, and returns every id in order. */
  async function walk(query: string, pageSize: number, path = base): Promise<{ ids: string[]; pages: number }> {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: Response = await get(`${query}&page_size=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, path);
      expect(response.status).toBe(200);
      expect(response.body.page.size).toBe(pageSize);
      cursor = response.body.page.cursor;
      // Every page but the last is full, and the last one is never empty.
      if (cursor) expect(response.body.data).toHaveLength(pageSize);
      else expect(response.body.data.length).toBeGreaterThan(pages === 0 ? -1 : 0);
      seen.push(...ids(response));
      pages++;
    } while (cursor && pages < 1000);
    return { ids: seen, pages };
  }

  describe('cursor walks: every row exactly once, in order', () => {
    it.each(['delivery_date', '-delivery_date'])('page_size 1, sort=%s (nullable: NULLs last ascending, first descending)', async (sort) => {
      const { ids: walked, pages } = await walk(`sort=${sort}`, 1);
      expect(new Set(walked).size).toBe(DOCUMENTS);
      expect(walked).toEqual(order(docs, termsOf(sort)));
      expect(pages).toBe(DOCUMENTS);
    });

    it('page_size 1, default sort (-created_at, ties by id), with filters', async () => {
      const keep = (d: DocRow) => d.status !== 'DRAFT' && d.status !== 'REFUSED' && d.creationDate >= '2026-01-20';
      const expected = order(docs.filter(keep), [['createdAt', 'DESC']]);
      const { ids: walked } = await walk('filter[status__notIn]=DRAFT,REFUSED&filter[creation_date__gte]=2026-01-20', 1);
      expect(walked).toEqual(expected);
      expect(walked.length).toBeGreaterThan(80);
    });

    it.each([
      ['creation_date,-number', ''],
      ['number,delivery_date', ''],
      ['-delivery_date,number', ''],
      ['delivery_date,-creation_date', 'filter[creation_date__gte]=2026-01-10'],
      ['-number,-created_at', 'filter[delivery_date__empty]=false&filter[status__in]=SENT,DELIVERED,CREATED,DRAFT'],
      ['created_at', 'filter[notes__empty]=false'],
    ])('page_size 7, sort=%s %s', async (sort, filter) => {
      const keep = (d: DocRow) =>
        filter === ''
          ? true
          : filter.startsWith('filter[creation_date')
            ? d.creationDate >= '2026-01-10'
            : filter.startsWith('filter[delivery_date')
              ? d.deliveryDate !== null && ['SENT', 'DELIVERED', 'CREATED', 'DRAFT'].includes(d.status)
              : d.notes !== null && d.notes !== '';
      const expected = order(docs.filter(keep), termsOf(sort));
      const { ids: walked, pages } = await walk(`sort=${sort}${filter ? `&${filter}` : ''}`, 7);
      expect(walked).toEqual(expected);
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 7)));
    });

    it('a last page that is exactly full has a null cursor (no empty page follows)', async () => {
      const { ids: walked, pages } = await walk('sort=number', 8);
      expect(walked).toEqual(order(docs, [['number', 'ASC']]));
      expect(pages).toBe(DOCUMENTS / 8);
    });

    it('page_size 100, then 3: the cursor does not depend on the page size', async () => {
      const first = await get('sort=creation_date&page_size=100').expect(200);
      const next = await get(`sort=creation_date&page_size=3&cursor=${first.body.page.cursor}`).expect(200);
      expect([...ids(first), ...ids(next)]).toEqual(order(docs, [['creationDate', 'ASC']]).slice(0, 103));
    });

    it('walks transactions sorted by amount (numeric, with ties) one page of 7 at a time', async () => {
      const fixtures = new Fixtures(api.db, rossi.companyId);
      const account = await fixtures.account();
      const amounts = ['0.5', '10', '9.99', '100.00', '100', '1000000.000001', '2.50', '2.5'];
      const rows = Array.from({ length: 60 }, (_, i) => ({
        id: randomUUID(),
        amount: amounts[i % amounts.length],
        value: Number(amounts[i % amounts.length]),
        date: day(i % 9),
      }));
      await api.db.getRepository(Transaction).insert(
        rows.map((r) => ({
          id: r.id,
          companyId: rossi.companyId,
          accountId: account.id,
          type: 'CREDIT' as const,
          amount: r.amount,
          currency: 'EUR',
          date: r.date,
        })),
      );
      const path = `/api/v1/companies/${rossi.companyId}/transactions`;
      expect((await walk('sort=-amount', 7, path)).ids).toEqual(order(rows, [['value', 'DESC']]));
      expect((await walk('sort=date,amount', 7, path)).ids).toEqual(
        order(rows, [
          ['date', 'ASC'],
          ['value', 'ASC'],
        ]),
      );
      expect((await walk('sort=-date,amount&filter[date__lte]=2026-01-05', 1, path)).ids).toEqual(
        order(
          rows.filter((r) => r.date <= '2026-01-05'),
          [
            ['date', 'DESC'],
            ['value', 'ASC'],
          ],
        ),
      );
    });
  });

  describe('filter operators against the model', () => {
    /** Every id matching a filter, in the default order (-created_at), across pages of 100. */
    const matching = async (filter: string) => (await walk(filter, 100)).ids;
    const model = (keep: (d: DocRow) => boolean) => order(docs.filter(keep), [['createdAt', 'DESC']]);

    it('date: eq, neq, gt, gte, lt, lte, in, notIn, empty', async () => {
      const d = '2026-01-15';
      expect(await matching(`filter[creation_date]=${d}`)).toEqual(model((x) => x.creationDate === d));
      expect(await matching(`filter[creation_date__eq]=${d}`)).toEqual(model((x) => x.creationDate === d));
      expect(await matching(`filter[creation_date__neq]=${d}`)).toEqual(model((x) => x.creationDate !== d));
      expect(await matching(`filter[creation_date__gt]=${d}`)).toEqual(model((x) => x.creationDate > d));
      expect(await matching(`filter[creation_date__gte]=${d}`)).toEqual(model((x) => x.creationDate >= d));
      expect(await matching(`filter[creation_date__lt]=${d}`)).toEqual(model((x) => x.creationDate < d));
      expect(await matching(`filter[creation_date__lte]=${d}`)).toEqual(model((x) => x.creationDate <= d));
      expect(await matching('filter[creation_date__in]=2026-01-01,2026-01-08')).toEqual(model((x) => ['2026-01-01', '2026-01-08'].includes(x.creationDate)));
      expect(await matching('filter[creation_date__notIn]=2026-01-01,2026-01-08')).toEqual(
        model((x) => !['2026-01-01', '2026-01-08'].includes(x.creationDate)),
      );
      expect(await matching('filter[creation_date__empty]=false')).toHaveLength(DOCUMENTS);
      expect(await matching('filter[creation_date__empty]=true')).toEqual([]);
    });

    it('date-time on a nullable column: comparisons never match NULL; neq, notIn and empty=true do', async () => {
      const t = '2026-02-01T20:00:00.000Z';
      expect(await matching(`filter[delivery_date]=${t}`)).toEqual(model((x) => x.deliveryDate === t));
      expect(await matching(`filter[delivery_date__neq]=${t}`)).toEqual(model((x) => x.deliveryDate !== t));
      expect(await matching(`filter[delivery_date__gt]=${t}`)).toEqual(model((x) => x.deliveryDate !== null && x.deliveryDate > t));
      expect(await matching(`filter[delivery_date__gte]=${t}`)).toEqual(model((x) => x.deliveryDate !== null && x.deliveryDate >= t));
      expect(await matching(`filter[delivery_date__lt]=${t}`)).toEqual(model((x) => x.deliveryDate !== null && x.deliveryDate < t));
      expect(await matching(`filter[delivery_date__lte]=2026-02-01T21:00:00%2B01:00`)).toEqual(model((x) => x.deliveryDate !== null && x.deliveryDate <= t));
      const pair = ['2026-02-01T13:00:00.000Z', t];
      expect(await matching(`filter[delivery_date__in]=${pair.join(',')}`)).toEqual(model((x) => x.deliveryDate !== null && pair.includes(x.deliveryDate)));
      expect(await matching(`filter[delivery_date__notIn]=${pair.join(',')}`)).toEqual(model((x) => x.deliveryDate === null || !pair.includes(x.deliveryDate)));
      expect(await matching('filter[delivery_date__empty]=true')).toEqual(model((x) => x.deliveryDate === null));
      expect(await matching('filter[delivery_date__empty]=false')).toEqual(model((x) => x.deliveryDate !== null));
    });

    it('enum: eq, neq, in, notIn, empty', async () => {
      expect(await matching('filter[status]=SENT')).toEqual(model((x) => x.status === 'SENT'));
      expect(await matching('filter[status__neq]=SENT')).toEqual(model((x) => x.status !== 'SENT'));
      expect(await matching('filter[status__in]=SENT,REFUSED')).toEqual(model((x) => ['SENT', 'REFUSED'].includes(x.status)));
      expect(await matching('filter[status__notIn]=SENT,REFUSED')).toEqual(model((x) => !['SENT', 'REFUSED'].includes(x.status)));
      expect(await matching('filter[status__empty]=true')).toEqual([]);
    });

    it("string: eq, neq, gt, gte, lt, lte, in, notIn, empty (NULL or ''), ilike", async () => {
      expect(await matching('filter[number]=N042')).toEqual(model((x) => x.number === 'N042'));
      expect(await matching('filter[number__neq]=N042')).toEqual(model((x) => x.number !== 'N042'));
      expect(await matching('filter[number__gt]=N080')).toEqual(model((x) => x.number > 'N080'));
      expect(await matching('filter[number__gte]=N080')).toEqual(model((x) => x.number >= 'N080'));
      expect(await matching('filter[number__lt]=N005')).toEqual(model((x) => x.number < 'N005'));
      expect(await matching('filter[number__lte]=N005')).toEqual(model((x) => x.number <= 'N005'));
      expect(await matching('filter[number__in]=N001,N089,N999')).toEqual(model((x) => ['N001', 'N089'].includes(x.number)));
      expect(await matching('filter[number__notIn]=N001,N089')).toEqual(model((x) => !['N001', 'N089'].includes(x.number)));
      expect(await matching('filter[notes__empty]=true')).toEqual(model((x) => x.notes === null || x.notes === ''));
      expect(await matching('filter[notes__empty]=false')).toEqual(model((x) => x.notes !== null && x.notes !== ''));
      expect(await matching('filter[notes__neq]=Nota 3')).toEqual(model((x) => x.notes !== 'Nota 3'));
      expect(await matching('filter[notes__notIn]=Nota 3,Nota 7')).toEqual(model((x) => x.notes === null || !['Nota 3', 'Nota 7'].includes(x.notes)));
      // ilike without % means "contains", case-insensitively; with % the pattern is anchored; _ is literal.
      expect(await matching('filter[notes__ilike]=OTA 3')).toEqual(model((x) => (x.notes ?? '').includes('ota 3')));
      expect(await matching('filter[notes__ilike]=_x')).toEqual(model((x) => (x.notes ?? '').includes('_x')));
      expect(await matching('filter[notes__ilike]=nota_0')).toEqual([]);
      expect(await matching('filter[notes__ilike]=%25 0')).toEqual(model((x) => (x.notes ?? '').endsWith(' 0')));
      expect(await matching('filter[number__ilike]=n00%25')).toEqual(model((x) => x.number.startsWith('N00')));
      expect(await matching('filter[number__ilike]=%25')).toHaveLength(DOCUMENTS);
    });

    it('several filters combine with AND', async () => {
      expect(await matching('filter[status]=SENT&filter[delivery_date__empty]=false&filter[number__lt]=N050')).toEqual(
        model((x) => x.status === 'SENT' && x.deliveryDate !== null && x.number < 'N050'),
      );
      expect(await matching('filter[creation_date__gte]=2026-01-10&filter[creation_date__lt]=2026-01-20')).toEqual(
        model((x) => x.creationDate >= '2026-01-10' && x.creationDate < '2026-01-20'),
      );
    });
  });

  describe("every list accepts exactly the operators of its fields' types", () => {
    const lists: Array<[string, ListSpec]> = [
      ['accounts', accountList],
      ['categories', categoryList],
      ['counterparts', counterpartList],
      ['documents', documentList],
      ['reconciliations', reconciliationList],
      ['sectionals', sectionalList],
      ['transactions', transactionList],
    ];
    const valueFor = (spec: FieldSpec): string =>
      ({
        uuid: randomUUID(),
        enum: spec.values?.[0] ?? '',
        date: '2026-03-01',
        datetime: '2026-03-01T00:00:00Z',
        decimal: '1.5',
        integer: '2026',
        bigint: '2026',
        string: 'x',
      })[spec.type];

    it.each(lists)('%s', async (name, spec) => {
      const path = `/api/v1/companies/${rossi.companyId}/${name}`;
      for (const [field, fieldSpec] of spec.filters) {
        for (const operator of FILTER_OPERATORS) {
          const value =
            operator === 'empty' ? 'true' : operator === 'in' || operator === 'notIn' ? `${valueFor(fieldSpec)},${valueFor(fieldSpec)}` : valueFor(fieldSpec);
          const param = `filter[${field}__${operator}]`;
          const response = await get(`${param}=${encodeURIComponent(value)}`, path);
          if (OPERATORS_BY_TYPE[fieldSpec.type].includes(operator)) {
            expect([param, response.status]).toEqual([param, 200]);
          } else {
            expectError(response, 400, 'invalid_query_parameter', `/query/${param}`);
          }
        }
      }
    });
  });

  describe('refusals', () => {
    it('unknown fields, operators, malformed names and bad values: 400 invalid_query_parameter pointing at the filter', async () => {
      for (const param of [
        'filter[amount]',
        'filter[category_id]',
        'filter[status__like]',
        'filter[status__EQ]',
        'filter[Status]',
        'filter[status]]',
        'filter[]',
        'filter',
        'filters[status]',
        'filter[status__]',
      ]) {
        expectError(await get(`${encodeURIComponent(param)}=SENT`), 400, 'invalid_query_parameter', `/query/${param}`);
      }
      expectError(await get('filter[status]=sent'), 400, 'invalid_query_parameter', '/query/filter[status]');
      expectError(await get('filter[status]='), 400, 'invalid_query_parameter', '/query/filter[status]');
      expectError(await get('filter[status__in]=SENT,'), 400, 'invalid_query_parameter', '/query/filter[status__in]');
      expectError(await get(`filter[status__in]=${Array(101).fill('SENT').join(',')}`), 400, 'invalid_query_parameter', '/query/filter[status__in]');
      expectError(await get('filter[status__empty]=1'), 400, 'invalid_query_parameter', '/query/filter[status__empty]');
      expectError(await get('filter[creation_date__gt]=2026-02-29'), 400, 'invalid_query_parameter', '/query/filter[creation_date__gt]');
      expectError(await get('filter[delivery_date]=2026-02-01T25:00:00Z'), 400, 'invalid_query_parameter', '/query/filter[delivery_date]');
      expectError(await get(`filter[number]=${'x'.repeat(501)}`), 400, 'invalid_query_parameter', '/query/filter[number]');
      expectError(await get('filter[status]=SENT&filter[status]=DRAFT'), 400, 'invalid_query_parameter', '/query/filter[status]');
      expectError(await get('limit=10'), 400, 'invalid_query_parameter', '/query/limit');
    });

    it('unknown or repeated sort fields: 400 pointing at sort', async () => {
      for (const sort of ['status', '-', 'number,', ',number', 'number,number', 'number,-number', 'NUMBER', 'number desc']) {
        expectError(await get(`sort=${encodeURIComponent(sort)}`), 400, 'invalid_query_parameter', '/query/sort');
      }
      expectError(await get('sort=number&sort=-number'), 400, 'invalid_query_parameter', '/query/sort');
    });

    it('unknown expansions: 400 pointing at expand', async () => {
      for (const expand of ['counterpart', 'flows.document', 'category,', 'Flows', '*']) {
        expectError(await get(`expand=${encodeURIComponent(expand)}`), 400, 'invalid_query_parameter', '/query/expand');
      }
    });

    it('page_size outside 1..100 or not an integer: 400 pointing at page_size; the default is 25', async () => {
      for (const size of ['0', '101', 'abc', '-1', '1.5', '', '1e2', ' 5', '0x10', '99999']) {
        expectError(await get(`page_size=${encodeURIComponent(size)}`), 400, 'invalid_query_parameter', '/query/page_size');
      }
      const first = await get('').expect(200);
      expect(first.body.page.size).toBe(25);
      expect(first.body.data).toHaveLength(25);
      expect((await get('page_size=100').expect(200)).body.data).toHaveLength(100);
    });

    it('a cursor reused with another sort or filter: 400 invalid_cursor', async () => {
      const cursor = (await get('sort=number&filter[status]=SENT&page_size=2').expect(200)).body.page.cursor as string;
      expect(cursor).toEqual(expect.any(String));
      // The same sort and filter accept it, whatever the page size.
      await get(`sort=number&filter[status]=SENT&page_size=5&cursor=${cursor}`).expect(200);
      for (const query of [
        'sort=-number&filter[status]=SENT',
        'sort=number',
        'sort=number&filter[status]=DRAFT',
        'sort=number&filter[status__eq]=SENT&filter[number__gt]=N000',
        'sort=creation_date&filter[status]=SENT',
        'filter[status]=SENT',
      ]) {
        expectError(
          await get(`${query}&cursor=${cursor}`),
          400,
          'invalid_cursor',
          '/query/cursor',
          'The cursor was made for other filters or another sort; keep them unchanged while paging.',
        );
      }
      // A cursor of another list.
      const transactions = `/api/v1/companies/${rossi.companyId}/transactions`;
      const other = (await get('page_size=1', transactions).expect(200)).body.page.cursor as string;
      expectError(await get(`cursor=${other}`), 400, 'invalid_cursor', '/query/cursor');
    });

    it('garbage or tampered cursors: 400 invalid_cursor', async () => {
      const valid = (await get('sort=delivery_date&page_size=2').expect(200)).body.page.cursor as string;
      const decoded = JSON.parse(Buffer.from(valid, 'base64url').toString('utf8')) as { k: unknown[]; f: string };
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const garbage = [
        'abc',
        'not a cursor',
        '%%%',
        '{}',
        encode({}),
        encode([]),
        encode(null),
        encode({ k: decoded.k, f: 'other' }),
        encode({ k: [...decoded.k, 'x'], f: decoded.f }),
        encode({ k: ['not-a-date', decoded.k[1]], f: decoded.f }),
        encode({ k: [decoded.k[0], 'not-a-uuid'], f: decoded.f }),
        encode({ k: [decoded.k[0], null], f: decoded.f }),
        encode({ k: [12, decoded.k[1]], f: decoded.f }),
        encode({ k: ["' OR 1=1 --", decoded.k[1]], f: decoded.f }),
        encode({ k: [decoded.k[0], decoded.k[1]], f: 7 }),
        'A'.repeat(3000),
        Buffer.from('\u0000\u0001').toString('base64url'),
      ];
      for (const cursor of garbage) {
        expectError(await get(`sort=delivery_date&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_cursor', '/query/cursor');
      }
      // NULL is a legitimate keyset value of the nullable sort field.
      await get(`sort=delivery_date&cursor=${encode({ k: [null, decoded.k[1]], f: decoded.f })}`).expect(200);
    });
  });

  it('keeps the suite fast: about a thousand requests in this file', () => {
    expect(requests).toBeLessThan(1500);
  });
});
