import { describe, expect, it } from '@jest/globals';
import { isEmailAddress } from './email.js';

describe('isEmailAddress', () => {
  it('answers false, never throws, on lone surrogates (class-validator raises URIError on them)', () => {
    for (const value of ['a\uD800@rossi.it', '"a\uD800"@rossi.it', 'a@ros\uDC00si.it', '\uDFFF', 'a@b\uD83D.it']) {
      expect(isEmailAddress(value)).toBe(false);
    }
  });

  it('refuses control characters, CR and LF even inside a quoted local part', () => {
    for (const value of ['"a\r\nb"@rossi.it', '"a\nb"@rossi.it', '"a\rb"@rossi.it', '"a\u0000"@rossi.it', 'a\t@rossi.it', '"a\u007f"@rossi.it']) {
      expect([value, isEmailAddress(value)]).toEqual([value, false]);
    }
  });

  it('takes ordinary and quoted addresses', () => {
    for (const value of ['fatture@rossi.it', '"mario rossi"@rossi.it', 'amministrazione+fatture@bianchi-impianti.it']) {
      expect([value, isEmailAddress(value)]).toEqual([value, true]);
    }
    expect(isEmailAddress(42)).toBe(false);
  });
});
