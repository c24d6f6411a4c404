import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import './data-source.js';

describe('value parsers installed with the data source', () => {
  const timestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);

  it('reads timestamptz in every offset form PostgreSQL writes', () => {
    expect(timestamptz('2026-11-21 18:18:00+00').toISOString()).toBe('2026-11-21T18:18:00.000Z');
    expect(timestamptz('2026-11-21 18:18:00.123+01').toISOString()).toBe('2026-11-21T17:18:00.123Z');
    expect(timestamptz('2026-11-21 18:18:00.123456+05:30').toISOString()).toBe('2026-11-21T12:48:00.123Z');
    expect(timestamptz('2026-03-29 01:59:59.9-03').toISOString()).toBe('2026-03-29T04:59:59.900Z');
  });

  it('leaves forms it does not rewrite to pg', () => {
    expect(timestamptz('1883-11-18 12:00:00+00:09:21').toISOString()).toBe('1883-11-18T11:50:39.000Z');
    expect(timestamptz('infinity')).toBe(Infinity);
  });

  it('keeps dates as the calendar day PostgreSQL sends', () => {
    expect(pg.types.getTypeParser(pg.types.builtins.DATE)('2026-02-28')).toBe('2026-02-28');
  });
});
