// FatturaPA validation throughput (issue 7), the pure part of invoice ingest: files per second over the oracle's valid
// samples (../shared/fatturapa/samples/valid) through
//   1. Flusso's reader: safe parse with libxml + validation against the model (parseInvoiceXml);
//   2. the same plus the SDI checks and the document derivation;
//   3. libxml's schema validation with the generated XSD (it compiles the schema on every call);
// next to `xmllint --noout --schema xsd/… <all files>` run as one batch, the baseline of the ingest benchmark.
// Run from the repository root after `npm run build`: `node bench/fatturapa.mjs` (BENCH_SECONDS per case, default 5).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deriveDocument, parseInvoiceXml, sdiChecks } from '../dist/server/src/invoices/fatturapa/index.js';
import { schemaValidator } from '../dist/server/src/invoices/fatturapa/libxml.js';
import { INVOICE_XSD_PATH } from '../dist/server/src/invoices/fatturapa/schema-file.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const dir = resolve('../shared/fatturapa/samples/valid');
const names = readdirSync(dir).filter((n) => n.endsWith('.xml'));
const files = names.map((n) => readFileSync(join(dir, n)));
const xsdPath = resolve(INVOICE_XSD_PATH);

/** Files per second of `work` over all samples, for about `seconds`. */
function measure(work, seconds) {
  let done = 0;
  const start = process.hrtime.bigint();
  while (Number(process.hrtime.bigint() - start) / 1e9 < seconds) {
    for (const file of files) work(file);
    done += files.length;
  }
  return done / (Number(process.hrtime.bigint() - start) / 1e9);
}

const xmllintArgs = ['--nonet', '--noout', '--schema', xsdPath, ...names.map((n) => join(dir, n))];
/** One xmllint process per batch of all the samples, as the ingest benchmark's baseline runs it. */
function xmllintBatches(seconds) {
  let batches = 0;
  const start = process.hrtime.bigint();
  while (Number(process.hrtime.bigint() - start) / 1e9 < seconds) {
    execFileSync('xmllint', xmllintArgs, { stdio: 'ignore' });
    batches++;
  }
  return (batches * files.length) / (Number(process.hrtime.bigint() - start) / 1e9);
}

const company = { vat_number: null, tax_code: null };
const libxmlValidate = schemaValidator(readFileSync(xsdPath, 'utf8'));
const cases = {
  'xmllint --noout --schema (one batch of all files)': null,
  'parseInvoiceXml (safe parse + model validation)': (b) => parseInvoiceXml(b),
  '  + sdiChecks + deriveDocument': (b) => {
    const { invoice } = parseInvoiceXml(b);
    sdiChecks(invoice, company);
    deriveDocument(invoice, company);
  },
  'libxml validate() with the generated XSD': (b) => libxmlValidate(b),
};
for (const work of Object.values(cases)) if (work) measure(work, 0.3);
// Rounds interleave the cases, so a machine shared with other work slows them alike; the median of each is kept.
const ROUNDS = 5;
const results = Object.fromEntries(Object.keys(cases).map((label) => [label, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, work] of Object.entries(cases)) results[label].push(work ? measure(work, SECONDS / ROUNDS) : xmllintBatches(SECONDS / ROUNDS));
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const baseline = median(results[Object.keys(cases)[0]]);
console.log(`${files.length} valid samples, ${ROUNDS} interleaved rounds, medians:`);
for (const [label, values] of Object.entries(results)) {
  const rate = median(values);
  console.log(`${label.padEnd(52)} ${rate.toFixed(0).padStart(7)} files/s   ${(rate / baseline).toFixed(2)}× xmllint`);
}
