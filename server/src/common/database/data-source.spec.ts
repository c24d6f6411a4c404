import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { readTimestamptz } from './data-source.js';

/** The value rewritten as ISO 8601 for Date to parse: the reading this parser replaced. */
function isoTimestamptz(value: string): Date {
  const match = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d{1,6})?)([+-]\d\d)(?::?(\d\d))?$/.exec(value)!;
  return new Date(`${match[1]}T${match[2]}${match[3]}:${match[4] ?? '00'}`);
}

describe('value parsers installed with the data source', () => {
  const timestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);

  it('reads timestamptz in every offset form PostgreSQL writes', () => {
    expect(timestamptz('2026-11-21 18:18:00+00').toISOString()).toBe('2026-11-21T18:18:00.000Z');
    expect(timestamptz('2026-11-21 18:18:00.123+01').toISOString()).toBe('2026-11-21T17:18:00.123Z');
    expect(timestamptz('2026-11-21 18:18:00.123456+05:30').toISOString()).toBe('2026-11-21T12:48:00.123Z');
    expect(timestamptz('2026-03-29 01:59:59.9-03').toISOString()).toBe('2026-03-29T04:59:59.900Z');
  });

  it('reads every fraction length and offset as Date reads their ISO 8601 form', () => {
    const fractions = ['', '.1', '.12', '.123', '.1234', '.12345', '.999999', '.000001'];
    const offsets = ['+00', '-03', '+05:30', '-12:45', '+14'];
    for (const day of ['2026-11-21 18:18:00', '1970-01-01 00:00:00', '2000-02-29 23:59:59', '1000-06-15 12:34:56']) {
      for (const fraction of fractions) {
        for (const offset of offsets) {
          const value = `${day}${fraction}${offset}`;
          expect([value, readTimestamptz(value)?.getTime()]).toEqual([value, isoTimestamptz(value).getTime()]);
        }
      }
    }
  });

  it('leaves forms it does not rewrite to pg', () => {
    for (const value of ['1883-11-18 12:00:00+00:09:21', '0099-01-01 00:00:00+00', '2026-11-21 18:18:00 BC', 'infinity', '2026-11-21T18:18:00Z']) {
      expect(readTimestamptz(value)).toBeUndefined();
    }
    expect(timestamptz('1883-11-18 12:00:00+00:09:21').toISOString()).toBe('1883-11-18T11:50:39.000Z');
    expect(timestamptz('infinity')).toBe(Infinity);
  });

  it('keeps dates as the calendar day PostgreSQL sends', () => {
    expect(pg.types.getTypeParser(pg.types.builtins.DATE)('2026-02-28')).toBe('2026-02-28');
  });
});
