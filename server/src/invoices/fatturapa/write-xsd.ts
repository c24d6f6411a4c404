/** `npm run xsd`: writes what is generated from the FatturaPA models — the schemas in xsd/ and the invoice types (run from the repository root). */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { INVOICE_XSD_PATH, SIMPLIFIED_XSD_PATH } from './schema-file.js';
import { SIMPLIFIED } from './simplified-model.js';
import { INVOICE_TYPES_PATH, invoiceTypesSource, SIMPLIFIED_TYPES_PATH } from './types-source.js';
import { invoiceXsd } from './xsd.js';

for (const [path, content] of [
  [INVOICE_XSD_PATH, invoiceXsd()],
  [SIMPLIFIED_XSD_PATH, invoiceXsd(SIMPLIFIED)],
  [INVOICE_TYPES_PATH, invoiceTypesSource()],
  [SIMPLIFIED_TYPES_PATH, invoiceTypesSource(SIMPLIFIED)],
]) {
  writeFileSync(resolve(process.cwd(), path), content);
  console.log(`Wrote ${path}`);
}
