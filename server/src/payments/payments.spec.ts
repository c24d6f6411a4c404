import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, startApi, type TestApi, type Tenant } from '../../test/api.js';
import { expectError, ids } from '../../test/expect.js';
import { Fixtures } from '../../test/fixtures.js';
import type { Account } from '../accounts/account.entity.js';
import { DomainEvent } from '../common/events/event.entity.js';
import { todayInRome } from '../common/validation/calendar-date.js';
import type { Document } from '../documents/document.entity.js';
import { Flow } from '../flows/flow.entity.js';
import { readXml, schemaValidator, type XmlElement } from '../invoices/fatturapa/libxml.js';
import { PaymentBatch, PaymentBatchPayment, PaymentBatchPaymentFlow } from './payment-batch.entity.js';

const validatePain001 = schemaValidator(readFileSync(resolve(process.cwd(), 'xsd/pain.001.001.09.flusso.xsd'), 'utf8'));

const DEBTOR_IBAN = 'IT60X0542811101000000123456';
const BIANCHI_IBAN = 'IT42L1234512345123456789012';
const MUELLER_IBAN = 'DE89370400440532013000';

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const child = (element: XmlElement, name: string): XmlElement => element.children.find((c) => c.name === name)!;
const path = (element: XmlElement, ...names: string[]): XmlElement => names.reduce(child, element);

describe('bulk payment requests', () => {
  let api: TestApi;
  let rossi: Tenant;
  let verdi: Tenant;
  let fixtures: Fixtures;
  let account: Account;
  let company: string;
  let foreignAccount: Account;
  let foreignFlow: Flow;
  let supplierInvoice: Document;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMIT_POINTS: '1000000' });
    rossi = await createTenant(api, 'Società Agricola Rossi & Figli S.r.l.');
    verdi = await createTenant(api, 'Verdi Costruzioni S.p.A.');
    fixtures = new Fixtures(api.db, rossi.companyId);
    account = await fixtures.account({ iban: DEBTOR_IBAN });
    supplierInvoice = await fixtures.document({ number: 'A-118', direction: 'RECEIVED', grossAmount: '1500.00' });
    const verdiFixtures = new Fixtures(api.db, verdi.companyId);
    foreignAccount = await verdiFixtures.account({ iban: 'IT60X0542811101000000654321' });
    foreignFlow = await verdiFixtures.flow(await verdiFixtures.document({ direction: 'RECEIVED' }));
    company = `/api/v1/companies/${rossi.companyId}`;
  });

  afterAll(() => api.close());

  const create = (body: unknown, tenant: Tenant = rossi) =>
    api.http
      .post(`/api/v1/companies/${tenant.companyId}/requests/bulk-payment`)
      .set(tenant.auth)
      .send(body as object);
  const payment = (values: Record<string, unknown> = {}) => ({
    payee_name: 'Caseificio Bianchi S.r.l.',
    iban: BIANCHI_IBAN,
    amount: { amount: '100.00', currency: 'EUR' },
    remittance_information: 'Fattura 1',
    ...values,
  });
  const request = (values: Record<string, unknown> = {}) => ({ account_id: account.id, payments: [payment()], ...values });
  const supplierFlow = (amount: string, values: Partial<Flow> = {}) => fixtures.flow(supplierInvoice, { amount, ...values });
  const eventCount = () => api.db.getRepository(DomainEvent).countBy({ companyId: rossi.companyId });
  const batchCount = () => api.db.getRepository(PaymentBatch).countBy({ companyId: rossi.companyId });

  describe('create', () => {
    it('creates a DRAFT batch with its payments, and offers the pain.001.001.09 file; flows do not change and no event is sent', async () => {
      const first = await supplierFlow('1000.00');
      const second = await supplierFlow('500.00');
      const events = await eventCount();
      const executionDate = addDays(todayInRome(), 3);
      const response = await create({
        account_id: account.id,
        requested_execution_date: executionDate,
        payments: [
          {
            payee_name: 'Caseificio Bianchi S.r.l.',
            iban: 'it42 l123 4512 3451 2345 6789 012',
            amount: { amount: '1500', currency: 'EUR' },
            remittance_information: 'Saldo fatture A-118 (rate 1 e 2) – “grazie”',
            end_to_end_id: 'A-118/2026',
            flow_ids: [first.id, second.id.toUpperCase()],
          },
          { payee_name: 'Weingut Müller & Söhne GmbH', iban: MUELLER_IBAN, amount: { amount: '306.4', currency: 'EUR' } },
        ],
      }).expect(201);
      const batch = await api.db.getRepository(PaymentBatch).findOneByOrFail({ id: response.body.id });
      const rows = await api.db.getRepository(PaymentBatchPayment).find({ where: { batchId: batch.id }, order: { position: 'ASC' } });
      const messageId = batch.id.replace(/-/g, '').toUpperCase();
      expect(response.body).toEqual({
        id: batch.id,
        status: 'DRAFT',
        account_id: account.id,
        message_id: messageId,
        requested_execution_date: executionDate,
        debtor: { name: 'Societa Agricola Rossi + Figli S.r.l.', iban: DEBTOR_IBAN, bic: null },
        payment_count: 2,
        control_sum: { amount: '1806.40', currency: 'EUR' },
        file_url: `${company}/payment-batches/${batch.id}/file`,
        payments: [
          {
            id: rows[0].id,
            end_to_end_id: 'A-118/2026',
            payee_name: 'Caseificio Bianchi S.r.l.',
            iban: BIANCHI_IBAN,
            amount: { amount: '1500.00', currency: 'EUR' },
            remittance_information: "Saldo fatture A-118 (rate 1 e 2) - 'grazie'",
            flow_ids: [first.id, second.id],
          },
          {
            id: rows[1].id,
            end_to_end_id: rows[1].id.replace(/-/g, '').toUpperCase(),
            payee_name: 'Weingut Muller + Sohne GmbH',
            iban: MUELLER_IBAN,
            amount: { amount: '306.40', currency: 'EUR' },
            remittance_information: null,
            flow_ids: [],
          },
        ],
        created_at: batch.createdAt.toISOString(),
        updated_at: batch.updatedAt.toISOString(),
      });
      expect(batch).toMatchObject({ companyId: rossi.companyId, status: 'DRAFT', paymentCount: 2, controlSum: '1806.40', currency: 'EUR' });

      const file = await api.http.get(response.body.file_url).set(rossi.auth).expect(200);
      expect(file.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(file.headers['content-disposition']).toBe(`attachment; filename="${messageId}.xml"`);
      expect(validatePain001(Buffer.from(file.text))).toEqual({ valid: true, problems: [] });
      const read = readXml(Buffer.from(file.text));
      if ('refusal' in read) throw new Error(read.refusal.message);
      const initiation = child(read.root, 'CstmrCdtTrfInitn');
      expect(path(initiation, 'GrpHdr', 'MsgId').text).toBe(messageId);
      expect(path(initiation, 'GrpHdr', 'CreDtTm').text).toBe(batch.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'));
      expect(path(initiation, 'GrpHdr', 'NbOfTxs').text).toBe('2');
      expect(path(initiation, 'GrpHdr', 'CtrlSum').text).toBe('1806.40');
      expect(path(initiation, 'PmtInf', 'PmtInfId').text).toBe(`${messageId}-1`);
      expect(path(initiation, 'PmtInf', 'ReqdExctnDt', 'Dt').text).toBe(executionDate);
      expect(path(initiation, 'PmtInf', 'Dbtr', 'Nm').text).toBe('Societa Agricola Rossi + Figli S.r.l.');
      expect(path(initiation, 'PmtInf', 'DbtrAcct', 'Id', 'IBAN').text).toBe(DEBTOR_IBAN);
      expect(path(initiation, 'PmtInf', 'DbtrAgt', 'FinInstnId', 'Othr', 'Id').text).toBe('NOTPROVIDED');
      const transfers = child(initiation, 'PmtInf').children.filter((c) => c.name === 'CdtTrfTxInf');
      expect(
        transfers.map((t) => [
          path(t, 'PmtId', 'EndToEndId').text,
          path(t, 'Amt', 'InstdAmt').text,
          path(t, 'Cdtr', 'Nm').text,
          path(t, 'CdtrAcct', 'Id', 'IBAN').text,
          t.children.find((c) => c.name === 'RmtInf')?.children[0].text ?? null,
        ]),
      ).toEqual(
        response.body.payments.map((p: Record<string, { amount: string } & string>) => [
          p.end_to_end_id,
          p.amount.amount,
          p.payee_name,
          p.iban,
          p.remittance_information,
        ]),
      );
      // The same batch gives the same file.
      expect((await api.http.get(response.body.file_url).set(rossi.auth).expect(200)).text).toBe(file.text);

      const flows = await api.db.getRepository(Flow).findBy({ id: first.id });
      expect(flows[0]).toMatchObject({ paymentStatus: 'TO_PAY', paidAmount: '0', updatedAt: first.updatedAt });
      expect(await eventCount()).toBe(events);
    });

    it("defaults the execution date to today (Europe/Rome) and takes the debtor bank's BIC", async () => {
      const response = await create(request({ debtor_bic: 'bpmo it22 xxx' })).expect(201);
      expect(response.body).toMatchObject({ requested_execution_date: todayInRome(), debtor: { bic: 'BPMOIT22XXX' } });
      const file = await api.http.get(response.body.file_url).set(rossi.auth).expect(200);
      expect(validatePain001(Buffer.from(file.text)).valid).toBe(true);
      expect(file.text).toContain('<BICFI>BPMOIT22XXX</BICFI>');
    });

    it('pays an issued credit note back, and a partly paid flow up to what remains', async () => {
      const creditNote = await fixtures.document({ number: 'NC-7', direction: 'ISSUED', type: 'CREDIT_NOTE', grossAmount: '80.00' });
      const refund = await fixtures.flow(creditNote);
      const partly = await supplierFlow('300.00', { paidAmount: '120.00' });
      await create(request({ payments: [payment({ amount: { amount: '80.00', currency: 'EUR' }, flow_ids: [refund.id] })] })).expect(201);
      await create(request({ payments: [payment({ amount: { amount: '180.00', currency: 'EUR' }, flow_ids: [partly.id] })] })).expect(201);
      const over = await create(request({ payments: [payment({ amount: { amount: '180.01', currency: 'EUR' }, flow_ids: [partly.id] })] }));
      expectError(over, 422, 'amount_exceeds_remaining', '/payments/0/amount/amount', 'Only 180.00 EUR of this flow remains to be paid.');
    });

    it('does not reserve flows: a second batch may pay the same flows (a draft may never reach the bank)', async () => {
      const f = await supplierFlow('50.00');
      const body = request({ payments: [payment({ amount: { amount: '50.00', currency: 'EUR' }, flow_ids: [f.id] })] });
      await create(body).expect(201);
      await create(body).expect(201);
      expect(await api.db.getRepository(PaymentBatchPaymentFlow).countBy({ flowId: f.id })).toBe(2);
    });

    it('takes 1000 payments in one request', async () => {
      const payments = Array.from({ length: 1000 }, (_, i) => payment({ amount: { amount: `${i + 1}.01`, currency: 'EUR' }, end_to_end_id: `ROW-${i}` }));
      const response = await create(request({ payments })).expect(201);
      expect(response.body).toMatchObject({ payment_count: 1000, control_sum: { amount: '500510.00', currency: 'EUR' } });
      const file = await api.http.get(response.body.file_url).set(rossi.auth).expect(200);
      expect(validatePain001(Buffer.from(file.text)).valid).toBe(true);
    });
  });

  describe('validation', () => {
    it('answers 400 for missing, mistyped and unknown members, each with its pointer', async () => {
      const batches = await batchCount();
      const missing = await create({}).expect(400);
      expect(missing.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(['/account_id', '/payments']);
      expectError(await create(request({ account_id: 'A-1' })), 400, 'bad_request', '/account_id', 'account_id must be a uuid');
      const notArray = await create(request({ payments: { 0: payment() } })).expect(400);
      expect(notArray.body.errors[0]).toEqual({
        code: 'bad_request',
        title: 'Bad request',
        detail: 'payments must be an array',
        source: { pointer: '/payments' },
      });
      expectError(
        await create(request({ payments: [payment({ payee_name: undefined })] })),
        400,
        'bad_request',
        '/payments/0/payee_name',
        'payee_name is required',
      );
      expectError(await create(request({ payments: [payment(), payment({ iban: 12 })] })), 400, 'bad_request', '/payments/1/iban', 'iban must be a string');
      expectError(await create(request({ payments: [payment({ amount: '100.00' })] })), 400, 'bad_request', '/payments/0/amount');
      expectError(
        await create(request({ payments: [payment({ amount: { amount: 100, currency: 'EUR' } })] })),
        400,
        'bad_request',
        '/payments/0/amount/amount',
      );
      expectError(
        await create(request({ payments: [payment({ bic: 'X' })] })),
        400,
        'bad_request',
        '/payments/0/bic',
        'The member bic is not allowed in this request.',
      );
      expectError(await create(request({ payments: [payment({ remittance_information: 7 })] })), 400, 'bad_request', '/payments/0/remittance_information');
      expectError(await create(request({ payments: [payment({ flow_ids: 'x' })] })), 400, 'bad_request', '/payments/0/flow_ids');
      expectError(await create(request({ requested_execution_date: null })), 400, 'bad_request', '/requested_execution_date');
      const flow = await supplierFlow('10.00');
      const malformed = await create(request({ payments: [payment(), payment({ flow_ids: [flow.id, 'nope', 7] })] })).expect(400);
      expect(malformed.body.errors).toEqual([
        { code: 'bad_request', title: 'Bad request', detail: 'A flow id must be a uuid.', source: { pointer: '/payments/1/flow_ids/1' } },
        { code: 'bad_request', title: 'Bad request', detail: 'A flow id must be a uuid.', source: { pointer: '/payments/1/flow_ids/2' } },
      ]);
      expect(await batchCount()).toBe(batches);
    });

    it('refuses each bad IBAN with invalid_iban, and IBANs outside SEPA with iban_not_sepa', async () => {
      const cases: Array<[string, string, string]> = [
        ['IT61X0542811101000000123456', 'invalid_iban', 'The check digits do not match the rest of the IBAN (ISO 13616 mod-97 check).'],
        ['IT60X054281110100000012345', 'invalid_iban', 'An IBAN of IT has 27 characters; this one has 26.'],
        ['US64SVBKUS6S3300958879', 'invalid_iban', 'US is not a country that issues IBANs.'],
        ['not an iban', 'invalid_iban', 'An IBAN is a two-letter country code, two check digits and up to 30 letters and digits.'],
        ['', 'invalid_iban', 'An IBAN is a two-letter country code, two check digits and up to 30 letters and digits.'],
        ['BR1800360305000010009795493C1', 'iban_not_sepa', 'BR is not a country of the SEPA schemes: a SEPA credit transfer cannot reach this IBAN.'],
      ];
      for (const [iban, code, detail] of cases) {
        expectError(await create(request({ payments: [payment(), payment({ iban })] })), 422, code as 'invalid_iban', '/payments/1/iban', detail);
      }
    });

    it('refuses amounts that are not euros, not positive, beyond two decimals or too large', async () => {
      const cases: Array<[unknown, string, string, string]> = [
        [{ amount: '100.00', currency: 'USD' }, 'currency_mismatch', '/payments/0/amount/currency', 'SEPA credit transfers are in EUR; got USD.'],
        [{ amount: '0', currency: 'EUR' }, 'invalid_amount', '/payments/0/amount/amount', 'amount must be more than zero.'],
        [{ amount: '0.00', currency: 'EUR' }, 'invalid_amount', '/payments/0/amount/amount', 'amount must be more than zero.'],
        [{ amount: '10.005', currency: 'EUR' }, 'invalid_amount', '/payments/0/amount/amount', 'amount may have at most two decimals (euro cents).'],
        [
          { amount: '1000000000.00', currency: 'EUR' },
          'invalid_amount',
          '/payments/0/amount/amount',
          'amount may be at most 999999999.99 in one SEPA credit transfer.',
        ],
        [{ amount: '-1.00', currency: 'EUR' }, 'unprocessable_entity', '/payments/0/amount/amount', /non-negative decimal/],
        [{ amount: '1.00', currency: 'XYZ' }, 'unprocessable_entity', '/payments/0/amount/currency', /ISO 4217/],
      ] as never;
      for (const [amount, code, pointer, detail] of cases) {
        expectError(await create(request({ payments: [payment({ amount })] })), 422, code as 'invalid_amount', pointer, detail as string);
      }
      // Trailing zeros beyond the cents are fine.
      await create(request({ payments: [payment({ amount: { amount: '10.500000', currency: 'EUR' } })] })).expect(201);
    });

    it('refuses names and texts that the SEPA character set cannot carry or that are too long once transliterated', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ payee_name: '' }, '/payments/0/payee_name', 'payee_name must hold letters or digits of the SEPA character set.'],
        [{ payee_name: '😀 ☕' }, '/payments/0/payee_name', 'payee_name must hold letters or digits of the SEPA character set.'],
        [
          { remittance_information: '😀' },
          '/payments/0/remittance_information',
          'remittance_information must hold letters or digits of the SEPA character set.',
        ],
        [{ remittance_information: '' }, '/payments/0/remittance_information', 'remittance_information must hold letters or digits of the SEPA character set.'],
        [{ end_to_end_id: ' ' }, '/payments/0/end_to_end_id', 'end_to_end_id must hold a letter or a digit.'],
        [{ end_to_end_id: 'FATT-1 ' }, '/payments/0/end_to_end_id', 'end_to_end_id must not start or end with a space.'],
        [{ payee_name: 'ß'.repeat(36) }, '/payments/0/payee_name', 'payee_name may be at most 70 characters long; it is 72 in the SEPA character set.'],
        [
          { remittance_information: 'x'.repeat(141) },
          '/payments/0/remittance_information',
          'remittance_information may be at most 140 characters long; it is 141 in the SEPA character set.',
        ],
        [{ end_to_end_id: 'x'.repeat(36) }, '/payments/0/end_to_end_id', 'end_to_end_id must be 1 to 35 characters long.'],
        [{ end_to_end_id: '/A-1' }, '/payments/0/end_to_end_id', 'end_to_end_id must not start or end with "/" nor contain "//".'],
        [{ end_to_end_id: 'FATT_1' }, '/payments/0/end_to_end_id', "end_to_end_id may hold only letters a-z and A-Z, digits, spaces and / - ? : ( ) . , ' +."],
      ];
      for (const [values, pointer, detail] of cases) {
        expectError(await create(request({ payments: [payment(values)] })), 422, 'unprocessable_entity', pointer, detail);
      }
      // Other scripts are romanised, accents sent as combining marks kept as letters, both in the file.
      const romanised = await create(
        request({ payments: [payment({ payee_name: 'Ame\u0301lie Παπαδόπουλος', remittance_information: 'Τιμολόγιο 118 – Счёт 7' })] }),
      ).expect(201);
      expect(romanised.body.payments[0]).toMatchObject({ payee_name: 'Amelie Papadopoylos', remittance_information: 'Timologio 118 - Schet 7' });
      const file = await api.http.get(romanised.body.file_url).set(rossi.auth).expect(200);
      expect(file.text).toContain('<Nm>Amelie Papadopoylos</Nm>');
      expect(file.text).toContain('<Ustrd>Timologio 118 - Schet 7</Ustrd>');
    });

    it('refuses an end_to_end_id used twice in one request, pointing at the second', async () => {
      const response = await create(request({ payments: [payment({ end_to_end_id: 'R-1' }), payment({ end_to_end_id: 'R-1' })] }));
      expectError(response, 422, 'unprocessable_entity', '/payments/1/end_to_end_id', 'end_to_end_id is already used by payment 0 of this request.');
    });

    it('refuses an execution date in the past or more than a year ahead, and a malformed BIC', async () => {
      const today = todayInRome();
      expectError(
        await create(request({ requested_execution_date: addDays(today, -1) })),
        422,
        'unprocessable_entity',
        '/requested_execution_date',
        `requested_execution_date must be today (${today}) or later.`,
      );
      expectError(
        await create(request({ requested_execution_date: addDays(today, 366) })),
        422,
        'unprocessable_entity',
        '/requested_execution_date',
        'requested_execution_date must be within 365 days of today.',
      );
      await create(request({ requested_execution_date: addDays(today, 365) })).expect(201);
      expectError(await create(request({ requested_execution_date: '2026-02-30' })), 422, 'unprocessable_entity', '/requested_execution_date');
      expectError(await create(request({ debtor_bic: 'BPMO' })), 422, 'unprocessable_entity', '/debtor_bic');
    });

    it('refuses no payments and more than 1000', async () => {
      expectError(await create(request({ payments: [] })), 422, 'unprocessable_entity', '/payments', 'payments must hold at least one payment');
      expectError(
        await create(request({ payments: Array.from({ length: 1001 }, () => payment()) })),
        422,
        'unprocessable_entity',
        '/payments',
        'payments may hold at most 1000 payments',
      );
    });

    it('refuses an account without an IBAN, with an invalid one, or not in EUR', async () => {
      const noIban = await fixtures.account({ iban: null });
      const badIban = await fixtures.account({ iban: 'IT00X0542811101000000123456' });
      const dollars = await fixtures.account({ iban: 'IT60X0542811101000000123456', currency: 'USD' });
      expectError(
        await create(request({ account_id: noIban.id })),
        422,
        'account_without_iban',
        '/account_id',
        'This account has no IBAN, so it cannot pay by SEPA credit transfer.',
      );
      expectError(await create(request({ account_id: badIban.id })), 422, 'account_without_iban', '/account_id');
      expectError(
        await create(request({ account_id: dollars.id })),
        422,
        'currency_mismatch',
        '/account_id',
        'This account is in USD; SEPA credit transfers are in EUR.',
      );
      // An account with no currency set pays in EUR.
      await create(request({ account_id: (await fixtures.account({ iban: DEBTOR_IBAN, currency: null })).id })).expect(201);
    });

    it('refuses flows that are not payable: money coming in, already PAID, not in EUR, named twice, or short of the amount', async () => {
      const issued = await fixtures.flow(await fixtures.document({ direction: 'ISSUED' }));
      const paid = await supplierFlow('10.00', { paymentStatus: 'PAID', paymentDate: '2026-03-01' });
      const dollars = await fixtures.flow(await fixtures.document({ direction: 'RECEIVED', currency: 'USD' }));
      const small = await supplierFlow('10.00');
      const receivedCreditNote = await fixtures.flow(await fixtures.document({ direction: 'RECEIVED', type: 'CREDIT_NOTE' }));
      const one = (flowIds: string[], amount = '10.00') => create(request({ payments: [payment({ amount: { amount, currency: 'EUR' }, flow_ids: flowIds })] }));
      expectError(
        await one([issued.id]),
        422,
        'flow_not_payable',
        '/payments/0/flow_ids/0',
        'This flow is money coming in (ISSUED INVOICE); a bulk payment pays only flows going out.',
      );
      expectError(
        await one([receivedCreditNote.id]),
        422,
        'flow_not_payable',
        '/payments/0/flow_ids/0',
        'This flow is money coming in (RECEIVED CREDIT_NOTE); a bulk payment pays only flows going out.',
      );
      expectError(await one([small.id, paid.id]), 422, 'flow_not_payable', '/payments/0/flow_ids/1', 'This flow is PAID; only TO_PAY flows can be paid.');
      expectError(await one([dollars.id]), 422, 'currency_mismatch', '/payments/0/flow_ids/0', 'This flow is in USD; SEPA credit transfers are in EUR.');
      expectError(await one([small.id, small.id]), 422, 'unprocessable_entity', '/payments/0/flow_ids/1', 'This flow is named twice in this payment.');
      expectError(
        await one([small.id], '10.01'),
        422,
        'amount_exceeds_remaining',
        '/payments/0/amount/amount',
        'Only 10.00 EUR of this flow remains to be paid.',
      );
      const twice = await create(
        request({
          payments: [
            payment({ amount: { amount: '5.00', currency: 'EUR' }, flow_ids: [small.id] }),
            payment({ amount: { amount: '5.00', currency: 'EUR' }, flow_ids: [small.id] }),
          ],
        }),
      );
      expectError(twice, 422, 'unprocessable_entity', '/payments/1/flow_ids/0', 'This flow is already paid by payment 0 of this request.');
    });

    it('reports every problem of every payment at once, and creates nothing', async () => {
      const batches = await batchCount();
      const response = await create({
        account_id: account.id,
        payments: [
          payment(),
          payment({ iban: 'IT61X0542811101000000123456', amount: { amount: '0', currency: 'EUR' } }),
          payment({ payee_name: '😀', amount: { amount: '5.00', currency: 'GBP' } }),
        ],
      }).expect(422);
      expect(response.body.errors.map((e: { code: string; source: { pointer: string } }) => [e.code, e.source.pointer])).toEqual([
        ['invalid_iban', '/payments/1/iban'],
        ['invalid_amount', '/payments/1/amount/amount'],
        ['unprocessable_entity', '/payments/2/payee_name'],
        ['currency_mismatch', '/payments/2/amount/currency'],
      ]);
      expect(await batchCount()).toBe(batches);
    });
  });

  describe('tenancy', () => {
    it("answers 404 for an unknown account or flow and 403 for another company's, with a pointer; nothing is created", async () => {
      const batches = await batchCount();
      const unknown = '3e2d1c0b-0000-4000-8000-000000000000';
      const own = await supplierFlow('10.00');
      expectError(await create(request({ account_id: unknown })), 404, 'not_found', '/account_id', 'Account was not found.');
      expectError(await create(request({ account_id: foreignAccount.id })), 403, 'forbidden', '/account_id');
      const withFlows = (flowIds: string[]) =>
        create(request({ payments: [payment(), payment({ amount: { amount: '1.00', currency: 'EUR' }, flow_ids: flowIds })] }));
      expectError(await withFlows([own.id, unknown]), 404, 'not_found', '/payments/1/flow_ids/1', 'Flow was not found.');
      expectError(await withFlows([own.id, foreignFlow.id]), 403, 'forbidden', '/payments/1/flow_ids/1', 'This API key has no access to this flow.');
      expectError(await create(request(), verdi), 403, 'forbidden', '/account_id');
      expect(await batchCount()).toBe(batches);
    });

    it("answers 403 for a company the key is not granted, and for another company's batch and file", async () => {
      const own = await create(request()).expect(201);
      expectError(await api.http.post(`/api/v1/companies/${verdi.companyId}/requests/bulk-payment`).set(rossi.auth).send(request()), 403, 'forbidden');
      expectError(await api.http.get(`/api/v1/companies/${verdi.companyId}/payment-batches`).set(rossi.auth), 403, 'forbidden');
      expectError(await api.http.get(`/api/v1/companies/${verdi.companyId}/payment-batches/${own.body.id}`).set(verdi.auth), 403, 'forbidden');
      expectError(await api.http.get(`/api/v1/companies/${verdi.companyId}/payment-batches/${own.body.id}/file`).set(verdi.auth), 403, 'forbidden');
      expectError(
        await api.http.get(`${company}/payment-batches/3e2d1c0b-0000-4000-8000-000000000000`).set(rossi.auth),
        404,
        'not_found',
        undefined,
        'Payment batch was not found.',
      );
      expectError(await api.http.get(`${company}/payment-batches/3e2d1c0b-0000-4000-8000-000000000000/file`).set(rossi.auth), 404, 'not_found');
      expectError(await api.http.get(`${company}/payment-batches/not-a-uuid/file`).set(rossi.auth), 404, 'not_found');
      expect(ids(await api.http.get(`/api/v1/companies/${verdi.companyId}/payment-batches`).set(verdi.auth).expect(200))).toEqual([]);
    });
  });

  describe('list and get', () => {
    let tenant: Tenant;
    let batches: string[];
    let tenantAccount: Account;
    const base = () => `/api/v1/companies/${tenant.companyId}/payment-batches`;

    beforeAll(async () => {
      tenant = await createTenant(api, 'Bianchi Forniture S.r.l.');
      tenantAccount = await new Fixtures(api.db, tenant.companyId).account({ iban: DEBTOR_IBAN });
      batches = [];
      for (const days of [5, 1, 3]) {
        const response = await create(
          { account_id: tenantAccount.id, requested_execution_date: addDays(todayInRome(), days), payments: [payment()] },
          tenant,
        ).expect(201);
        batches.push(response.body.id);
      }
    });

    it('lists newest first, without payments unless expanded, with cursor pagination', async () => {
      const list = await api.http.get(base()).set(tenant.auth).expect(200);
      expect(ids(list)).toEqual([...batches].reverse());
      expect(list.body.page).toEqual({ cursor: null, size: 25 });
      expect(list.body.data[0]).toMatchObject({ status: 'DRAFT', payments: null, payment_count: 1 });
      const expanded = await api.http.get(`${base()}?expand=payments`).set(tenant.auth).expect(200);
      expect(expanded.body.data[0].payments).toEqual([expect.objectContaining({ iban: BIANCHI_IBAN, flow_ids: [] })]);
      const first = await api.http.get(`${base()}?page_size=2`).set(tenant.auth).expect(200);
      const second = await api.http.get(`${base()}?page_size=2&cursor=${first.body.page.cursor}`).set(tenant.auth).expect(200);
      expect([...ids(first), ...ids(second)]).toEqual([...batches].reverse());
      expect(second.body.page.cursor).toBeNull();
    });

    it('filters and sorts by execution date, filters by status and account', async () => {
      const byDate = await api.http.get(`${base()}?sort=requested_execution_date`).set(tenant.auth).expect(200);
      expect(ids(byDate)).toEqual([batches[1], batches[2], batches[0]]);
      const later = await api.http
        .get(`${base()}?filter[requested_execution_date__gte]=${addDays(todayInRome(), 3)}&sort=-requested_execution_date`)
        .set(tenant.auth)
        .expect(200);
      expect(ids(later)).toEqual([batches[0], batches[2]]);
      expect(ids(await api.http.get(`${base()}?filter[status]=DRAFT&filter[account_id]=${tenantAccount.id}`).set(tenant.auth).expect(200))).toHaveLength(3);
      expectError(await api.http.get(`${base()}?filter[status]=PAID`).set(tenant.auth), 400, 'invalid_query_parameter', '/query/filter[status]');
      expectError(await api.http.get(`${base()}?sort=amount`).set(tenant.auth), 400, 'invalid_query_parameter', '/query/sort');
      expectError(await api.http.get(`${base()}?expand=flows`).set(tenant.auth), 400, 'invalid_query_parameter', '/query/expand');
    });

    it('gets one batch, with payments when expanded', async () => {
      const plain = await api.http.get(`${base()}/${batches[0]}`).set(tenant.auth).expect(200);
      expect(plain.body).toMatchObject({ id: batches[0], payments: null, file_url: `${base()}/${batches[0]}/file` });
      const expanded = await api.http.get(`${base()}/${batches[0]}?expand=payments`).set(tenant.auth).expect(200);
      expect(expanded.body.payments).toHaveLength(1);
      expectError(await api.http.get(`${base()}/${batches[0]}?sort=x`).set(tenant.auth), 400, 'invalid_query_parameter', '/query/sort');
      expectError(await api.http.get(`${base()}/${batches[0]}/file?expand=payments`).set(tenant.auth), 400, 'invalid_query_parameter', '/query/expand');
    });
  });

  describe('hostile input', () => {
    it('writes markup, control characters and huge names as plain SEPA text: the file stays valid', async () => {
      const response = await create(
        request({
          payments: [
            payment({
              payee_name: '</Nm><Evil xmlns="x"/>&amp;',
              remittance_information: ']]><!ENTITY x SYSTEM "file:///etc/passwd">\u0007\u202e',
              end_to_end_id: "A'B+C",
            }),
          ],
        }),
      ).expect(201);
      expect(response.body.payments[0]).toMatchObject({ payee_name: "./Nm..Evil xmlns.'x'/.+amp.", end_to_end_id: "A'B+C" });
      const file = await api.http.get(response.body.file_url).set(rossi.auth).expect(200);
      expect(validatePain001(Buffer.from(file.text))).toEqual({ valid: true, problems: [] });
      expect(file.text).not.toContain('<Evil');
      expect(file.text).not.toContain('<!ENTITY');
      expect(response.body.payments[0].remittance_information).toBe(".....ENTITY x SYSTEM 'file:///etc/passwd'.");
    });

    it('answers 400 for prototype names as members and 413 past the body limit, never 500', async () => {
      for (const name of ['constructor', 'toString', '__proto__']) {
        const body = `{"account_id":"${account.id}","payments":[{"payee_name":"A","iban":"${BIANCHI_IBAN}","amount":{"amount":"1.00","currency":"EUR"},${JSON.stringify(name)}:1}]}`;
        const response = await api.http.post(`${company}/requests/bulk-payment`).set(rossi.auth).set('content-type', 'application/json').send(body);
        expect([name, response.status]).toEqual([name, 400]);
      }
      const huge = await create(request({ payments: [payment({ payee_name: 'x'.repeat(2 * 1024 * 1024) })] }));
      expectError(huge, 413, 'payload_too_large');
      const sql = await create(request({ payments: [payment({ flow_ids: ["'; DROP TABLE flows; --"] })] }));
      expectError(sql, 400, 'bad_request', '/payments/0/flow_ids/0');
      expect(await api.db.getRepository(Flow).count()).toBeGreaterThan(0);
      const xml = await api.http.post(`${company}/requests/bulk-payment`).set(rossi.auth).set('content-type', 'application/xml').send('<x/>');
      expect(xml.status).toBe(415);
    });
  });
});
