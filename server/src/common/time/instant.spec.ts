import { instant, instantOrNull } from './instant.js';

describe('instant', () => {
  it('writes what toISOString writes, every field width and the years it leaves to it', () => {
    const dates = [
      new Date(0),
      new Date(Date.UTC(2026, 10, 29, 16, 1, 14, 0)),
      new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999)),
      new Date(Date.UTC(1999, 11, 31, 0, 0, 0, 5)),
      new Date(Date.UTC(1000, 0, 1, 9, 9, 9, 50)),
      new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)),
      new Date(Date.UTC(999, 0, 1)),
      new Date(Date.UTC(10000, 0, 1)),
      new Date(Date.UTC(-1, 0, 1)),
      new Date(8.64e15),
    ];
    for (let i = 0; i < 2000; i++) dates.push(new Date(Math.floor(Math.random() * 4e12)));
    for (const date of dates) expect(instant(date)).toBe(date.toISOString());
  });

  it('throws on an invalid date as toISOString does, and gives null for a missing one', () => {
    expect(() => instant(new Date(Number.NaN))).toThrow(RangeError);
    expect(instantOrNull(null)).toBeNull();
    expect(instantOrNull(undefined)).toBeNull();
    expect(instantOrNull(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });
});
