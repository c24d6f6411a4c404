import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { OFFICIAL_XSD_PATH, officialXsd, samples } from '../../../test/fatturapa-oracle.js';
import { schemaValidator } from './libxml.js';
import { INVOICE_XSD_PATH } from './schema-file.js';
import { INVOICE_TYPES_PATH, invoiceTypesSource } from './types-source.js';
import { invoiceXsd } from './xsd.js';

const committed = () => readFileSync(resolve(process.cwd(), INVOICE_XSD_PATH), 'utf8');

describe('the generated FatturaPA schema', () => {
  it('is what the model generates (run `npm run xsd` after changing the model)', () => {
    expect(committed()).toBe(invoiceXsd());
  });

  it('comes with the invoice types the model generates (run `npm run xsd` after changing the model)', () => {
    expect(readFileSync(resolve(process.cwd(), INVOICE_TYPES_PATH), 'utf8')).toBe(invoiceTypesSource());
  });

  it('is not a copy of the official file', () => {
    const hash = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(hash(committed())).not.toBe(hash(readFileSync(OFFICIAL_XSD_PATH, 'utf8')));
    expect(committed()).not.toContain('xs:import');
  });

  // The verdict of libxml with the generated schema must be the official schema's on every sample, valid or not.
  const official = schemaValidator(officialXsd(), OFFICIAL_XSD_PATH);
  const generated = schemaValidator(invoiceXsd());
  const all = [...samples('valid').map((s) => ({ ...s, folder: 'valid' })), ...samples('invalid').map((s) => ({ ...s, folder: 'invalid' }))];

  it.each(all.map((s) => [`${s.folder}/${s.name}`, s] as const))('agrees with the official schema on %s', (_, s) => {
    const verdict = generated(s.bytes).valid;
    expect(verdict).toBe(official(s.bytes).valid);
    const schemaInvalid = s.folder === 'invalid' && /^(xml|xsd|sec)_/.test(s.name);
    expect(verdict).toBe(!schemaInvalid);
  });
});
