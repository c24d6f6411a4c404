/** `npm run xsd`: writes what is generated from the FatturaPA model — the schema in xsd/ and the invoice types (run from the repository root). */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { INVOICE_XSD_PATH } from './schema-file.js';
import { INVOICE_TYPES_PATH, invoiceTypesSource } from './types-source.js';
import { invoiceXsd } from './xsd.js';

for (const [path, content] of [
  [INVOICE_XSD_PATH, invoiceXsd()],
  [INVOICE_TYPES_PATH, invoiceTypesSource()],
]) {
  writeFileSync(resolve(process.cwd(), path), content);
  console.log(`Wrote ${path}`);
}
