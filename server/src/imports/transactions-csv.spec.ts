import { describe, expect, it } from '@jest/globals';
import { parseStatement } from './transactions-csv.js';

describe('parseStatement', () => {
  it('reads signed amounts as credits and debits, with optional columns', () => {
    const csv = [
      'date,amount,description,value_date,booking_date_time,counterpart_name,clean_description,currency',
      '2026-03-02,1220.00,BONIFICO SEPA DA ROSSI SRL,2026-03-03,2026-03-02T09:30:00+01:00,Rossi S.r.l.,Bonifico da Rossi,',
      '2026-03-04,-45.9,"POS ""BAR SPORT"", BOLOGNA",,,,,eur',
    ].join('\n');
    expect(parseStatement(csv, 'EUR')).toEqual({
      problems: [],
      transactions: [
        {
          type: 'CREDIT',
          amount: '1220.00',
          currency: 'EUR',
          date: '2026-03-02',
          value_date: '2026-03-03',
          booking_date_time: '2026-03-02T08:30:00.000Z',
          description: 'BONIFICO SEPA DA ROSSI SRL',
          counterpart_name: 'Rossi S.r.l.',
          clean_description: 'Bonifico da Rossi',
        },
        {
          type: 'DEBIT',
          amount: '45.9',
          currency: 'EUR',
          date: '2026-03-04',
          value_date: null,
          booking_date_time: null,
          description: 'POS "BAR SPORT", BOLOGNA',
          counterpart_name: null,
          clean_description: null,
        },
      ],
    });
  });

  it('takes the direction from a type column, semicolon-separated, with a byte-order mark', () => {
    const { transactions, problems } = parseStatement('\uFEFFDate;Type;Amount\r\n2026-01-31;debit;12.50\r\n2026-02-01;CREDIT;0\r\n', 'EUR');
    expect(problems).toEqual([]);
    expect(transactions.map((t) => [t.type, t.amount])).toEqual([
      ['DEBIT', '12.50'],
      ['CREDIT', '0'],
    ]);
  });

  it('reports every bad row with its line and column', () => {
    const csv = [
      'date,amount,currency,booking_date_time',
      '2026-02-30,10.00,EUR,',
      '2026-03-01,"1.234,56",EUR,',
      '',
      '2026-03-02,5,EUX,2026-03-02 10:00',
      '2026-03-03,0,EUR,',
      '2026-03-04,7',
      '2026-03-05,8.00,EUR,',
    ].join('\n');
    expect(parseStatement(csv, 'EUR').problems).toEqual([
      { line: 2, column: 'date', message: '"2026-02-30" is not a date in the form YYYY-MM-DD' },
      { line: 3, column: 'amount', message: '"1.234,56" is not a decimal number (write decimals with a dot, without thousands separators: 1234.56)' },
      { line: 5, column: 'currency', message: '"EUX" is not an ISO 4217 currency code such as EUR' },
      {
        line: 5,
        column: 'booking_date_time',
        message: '"2026-03-02 10:00" is not an ISO 8601 date-time with a time zone, such as 2026-03-02T09:30:00+01:00',
      },
      { line: 6, column: 'amount', message: 'must not be zero: its sign tells a credit from a debit' },
      { line: 7, column: null, message: 'has 2 fields, the header has 4' },
    ]);
  });

  it('checks the header row', () => {
    expect(parseStatement('when,amount,memo\n2026-01-01,1,x\n', 'EUR').problems).toEqual([
      {
        line: 1,
        column: null,
        message:
          'unknown column "when"; the columns are date, amount, type, currency, description, value_date, booking_date_time, counterpart_name, clean_description',
      },
      {
        line: 1,
        column: null,
        message:
          'unknown column "memo"; the columns are date, amount, type, currency, description, value_date, booking_date_time, counterpart_name, clean_description',
      },
      { line: 1, column: 'date', message: 'the header row has no "date" column' },
    ]);
    expect(parseStatement('', 'EUR').problems).toEqual([{ line: 1, column: null, message: 'the file is empty: a header row is required' }]);
    expect(parseStatement('date,amount\n', 'EUR').problems).toEqual([{ line: 1, column: null, message: 'the file has a header row but no transactions' }]);
  });

  it('needs a currency when the account has none, and a valid type when there is a type column', () => {
    expect(parseStatement('date,amount\n2026-01-01,5\n', null).problems).toEqual([
      { line: 2, column: 'currency', message: 'is required: the account has no currency of its own' },
    ]);
    expect(parseStatement('date,amount,type\n2026-01-01,-5,DEBIT\n2026-01-02,5,OUT\n', 'EUR').problems).toEqual([
      { line: 2, column: 'amount', message: 'must not be negative when a type column gives the direction' },
      { line: 3, column: 'type', message: 'must be CREDIT or DEBIT, got "OUT"' },
    ]);
  });

  it('reports a malformed file instead of throwing', () => {
    const { problems } = parseStatement('date,amount\n2026-01-01,"5\n', 'EUR');
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/quote/i);
  });
});
