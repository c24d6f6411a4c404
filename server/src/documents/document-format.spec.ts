import { describe, expect, it } from '@jest/globals';
import { documentFormat } from './document-format.js';

describe('the format of a document recorded without a FatturaPA file', () => {
  it('is FPA12 only when issued to a public administration office (a 6-character destination code)', () => {
    expect(documentFormat('ISSUED', { destinationCode: 'UFZB9P' })).toBe('FPA12');
    expect(documentFormat('RECEIVED', { destinationCode: 'UFZB9P' })).toBe('FPR12');
    expect(documentFormat('ISSUED', { destinationCode: 'M5UXCR1' })).toBe('FPR12');
    expect(documentFormat('ISSUED', { destinationCode: '0000000' })).toBe('FPR12');
    expect(documentFormat('ISSUED', { destinationCode: null })).toBe('FPR12');
    expect(documentFormat('ISSUED', null)).toBe('FPR12');
  });
});
