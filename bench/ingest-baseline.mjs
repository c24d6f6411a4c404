// The ingest benchmark's baseline: the work of POST …/documents/invoice without the framework, in one bare Node
// process. For each file: open the .p7m envelope when it is one (the product's pkijs code), parse it with libxmljs2 and
// validate it against the same generated schema (ordinary or FSM10), read its JSON form, run the SDI checks and the
// derivation (the product's pure functions), then write the same rows through `pg` in one transaction: the company's
// ProgressivoInvio, the counterpart (found or created), the document, its flows and the stored invoice, as
// invoice-store.ts writes them, and the outbox's `document.created` event (the document as JSON). Like the API it reads
// the company's VAT number first (the rules check the file against it). No Nest, no TypeORM, no HTTP, no XML pool.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import libxml from 'libxmljs2';
import pg from 'pg';
import { API_VERSION } from '../dist/server/src/config/api-version.js';
import { deriveDocument, duplicateKey, sdiChecks } from '../dist/server/src/invoices/fatturapa/index.js';
import { INVOICE_XSD_PATH, SIMPLIFIED_XSD_PATH } from '../dist/server/src/invoices/fatturapa/schema-file.js';
import { SIMPLIFIED_NAMESPACE } from '../dist/server/src/invoices/fatturapa/simplified-model.js';
import { readInvoiceTree } from '../dist/server/src/invoices/fatturapa/xml-read.js';
import { elementTree } from '../dist/server/src/invoices/fatturapa/xml-tree.js';
import { openSignedFile } from '../dist/server/src/invoices/signed/signed-file.js';

const SAFE = { nonet: true, noent: false, huge: false, dtdload: false, dtdvalid: false, dtdattr: false };
const schemas = {
  ordinary: libxml.parseXml(readFileSync(resolve(INVOICE_XSD_PATH), 'utf8')),
  simplified: libxml.parseXml(readFileSync(resolve(SIMPLIFIED_XSD_PATH), 'utf8')),
};

/** The document, flows and invoice rows of one file, as the API writes them (invoice-store.ts). */
const INSERT = `WITH document AS (
   INSERT INTO documents (company_id, number, type, status, format, is_e_invoice, direction, currency, gross_amount, vat_amount, counterpart_id, creation_date, file_name)
     VALUES ($1, $2, $3, 'DRAFT', $4, true, $5, $6, $7, $8, $9, $10, $11)
   RETURNING *
 ), flow AS (
   INSERT INTO flows (id, company_id, document_id, amount, currency, paid_amount, payment_status, payment_method, expected_payment_date, created_at, updated_at)
     SELECT f.id, document.company_id, document.id, f.amount, f.currency, 0, 'TO_PAY', f.method, f.due, document.created_at, document.created_at
       FROM document, unnest($12::uuid[], $13::numeric[], $14::char(3)[], $15::text[], $16::date[]) AS f(id, amount, currency, method, due)
 ), invoice AS (
   INSERT INTO invoices (document_id, company_id, progressivo_invio, source, xml, invoice, duplicate_key, signed_file)
     SELECT document.id, document.company_id, $17, 'xml', $18, $19::jsonb, $20, $21 FROM document
 )
 SELECT * FROM document`;

/** One file, start to end; throws when the API would have refused it. */
async function ingestOne(pool, companyId, body, signed) {
  const [company] = (await pool.query('SELECT vat_number, country FROM companies WHERE id = $1', [companyId])).rows;
  const vat = company.vat_number;
  let bytes = body;
  if (signed) {
    const opened = await openSignedFile(body);
    if (!opened.ok) throw new Error(opened.reason);
    bytes = opened.content;
  }
  const doc = libxml.parseXml(bytes, SAFE);
  const simplified = doc.root().namespace()?.href() === SIMPLIFIED_NAMESPACE;
  if (!doc.validate(simplified ? schemas.simplified : schemas.ordinary)) throw new Error(`schema: ${doc.validationErrors[0]?.message}`);
  const { invoice, problems } = readInvoiceTree(elementTree(bytes.toString('utf8').replace(/^\uFEFF/, '')));
  if (!invoice) throw new Error(`model: ${problems[0]?.message}`);
  const identity = { vat_number: vat };
  const sdi = sdiChecks(invoice, identity);
  if (sdi.length) throw new Error(`sdi: ${sdi[0].code} ${sdi[0].message}`);
  const derived = deriveDocument(invoice, identity);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const [{ last }] = (
      await client.query(
        `INSERT INTO sdi_progressivi (company_id, last) VALUES ($1, 1) ON CONFLICT (company_id) DO UPDATE SET last = sdi_progressivi.last + 1 RETURNING last::text`,
        [companyId],
      )
    ).rows;
    const progressivo = Number(last).toString(36).toUpperCase().padStart(5, '0');
    let counterpartId = null;
    const party = derived.counterpart;
    if (party) {
      const found = await client.query(
        `SELECT id FROM counterparts WHERE company_id = $1 AND (vat_number = $2 OR tax_number = $3) ORDER BY (vat_number = $2) IS TRUE DESC, created_at, id LIMIT 1`,
        [companyId, party.vat_number, party.tax_number],
      );
      counterpartId =
        found.rows[0]?.id ??
        (
          await client.query(
            `INSERT INTO counterparts (company_id, company_name, address, city, postal_code, province_code, country, tax_number, vat_number, destination_code)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
               ON CONFLICT (company_id, vat_number) DO UPDATE SET vat_number = EXCLUDED.vat_number RETURNING id`,
            [
              companyId,
              party.company_name,
              party.address,
              party.city,
              party.postal_code,
              party.province_code,
              party.country,
              party.tax_number,
              party.vat_number,
              party.destination_code,
            ],
          )
        ).rows[0].id;
    }
    const [document] = (
      await client.query(INSERT, [
        companyId,
        derived.number,
        derived.type,
        derived.format,
        derived.direction,
        derived.gross_amount.currency,
        derived.gross_amount.amount,
        derived.vat_amount.amount,
        counterpartId,
        derived.creation_date,
        `${vat}_${progressivo}.xml${signed ? '.p7m' : ''}`,
        derived.flows.map(() => randomUUID()),
        derived.flows.map((f) => f.amount.amount),
        derived.flows.map((f) => f.amount.currency),
        derived.flows.map((f) => f.payment_method),
        derived.flows.map((f) => f.expected_payment_date),
        progressivo,
        bytes,
        JSON.stringify(invoice),
        duplicateKey(invoice),
        signed ? body : null,
      ])
    ).rows;
    const event = { ...document, counterpart: party ?? null, flows: derived.flows };
    await client.query('INSERT INTO events (company_id, type, payload, created_at, api_version) VALUES ($1, $2, $3, $4, $5)', [
      companyId,
      'document.created',
      JSON.stringify(event),
      document.created_at,
      API_VERSION,
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Invoices per second written by `concurrency` loops over the same requests as the API's run for `seconds`:
 * `nextRequest()` gives `{ sample, body, signed }` as it gives them to the API.
 */
export async function baselineIngest(databaseUrl, companyOf, nextRequest, seconds, concurrency) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: concurrency });
  let created = 0;
  const end = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < end) {
          const { sample, body, signed } = nextRequest();
          await ingestOne(pool, companyOf.get(sample.vat), body, signed);
          created++;
        }
      }),
    );
  } finally {
    await pool.end();
  }
  return created / (Number(process.hrtime.bigint() - started) / 1e9);
}
