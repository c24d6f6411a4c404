// Invoice XML off the event loop (issue 16). Through the real API (its own process, PostgreSQL, Redis): the p99 of
// one tenant's list call (GET …/documents, sequential) while the API is idle, and while another tenant keeps sending
// the two files that froze it before the XML pool: a root element with 100,000 attributes (1.09 MB, refused as
// invoice_too_complex by the markup scan) and a legal invoice of 25,000 lines (4.77 MiB, created), one of each in
// flight at all times. Prints both p99s and their ratio (target ≤ 2), and what the heavy requests got and took.
// Idle and busy phases alternate over 4 rounds. Run with `npm run bench:xml` (builds first). BENCH_SECONDS (default
// 20) of busy phases, half as long idle; BENCH_XML_FILES=attributes or =lines sends only one kind. The database
// BENCH_DATABASE_URL (default …/flusso_bench_xml) is created afresh on every run, so that runs compare.
import 'reflect-metadata';
import { Worker } from 'node:worker_threads';
import { benchDatabaseUrl, benchEnv, cpuMs, freePort, freshDatabase, startApi, waitFor } from './support.mjs';
import { listLatencies, p99 } from './list-prober.mjs';
import { loadConfig } from '../dist/server/src/config/config.js';
import { preflight } from '../dist/server/src/processes/preflight.js';
import { IntegratorsService } from '../dist/server/src/integrators/integrators.service.js';
import { invoiceToXml } from '../dist/server/src/invoices/fatturapa/index.js';
import { exampleInvoice } from '../dist/server/src/invoices/invoice-example.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const FILES = (process.env.BENCH_XML_FILES ?? 'attributes,lines').split(',');
const databaseUrl = benchDatabaseUrl('flusso_bench_xml', process.env.BENCH_DATABASE_URL);
const SELLER_VAT = '01234567890';
const LISTER_VAT = '05432109876';

/** The same files as server/test/large-invoices.ts, each request with its own invoice number. */
const manyAttributesXml = () =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><p:FatturaElettronica xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2" versione="FPR12"${Array.from({ length: 100_000 }, (_, i) => ` a${i}="x"`).join('')}/>`,
  );
function manyLinesXml(lines) {
  const invoice = exampleInvoice({ sellerVat: SELLER_VAT, number: 'N' });
  const body = invoice.fattura_elettronica_body[0];
  body.dati_beni_servizi.dettaglio_linee = Array.from({ length: lines }, (_, i) => ({
    numero_linea: String((i % 9999) + 1),
    descrizione: 'Vite M6',
    prezzo_unitario: '1.00',
    prezzo_totale: '1.00',
    aliquota_iva: '22.00',
  }));
  const gross = ((lines * 122) / 100).toFixed(2);
  body.dati_beni_servizi.dati_riepilogo = [
    { aliquota_iva: '22.00', imponibile_importo: lines.toFixed(2), imposta: ((lines * 22) / 100).toFixed(2), esigibilita_iva: 'I' },
  ];
  body.dati_generali.dati_generali_documento.importo_totale_documento = gross;
  body.dati_pagamento[0].dettaglio_pagamento[0].importo_pagamento = gross;
  return invoiceToXml(invoice, { pretty: false });
}
const post = (base, headers, company, body) =>
  fetch(`${base}/companies/${company}/documents/invoice`, { method: 'POST', headers: { ...headers, 'content-type': 'application/xml' }, body });

async function prepare() {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
  await preflight(config, true);
  const db = await freshDatabase(databaseUrl);
  const integrators = new IntegratorsService(db, config, async () => undefined);
  const integrator = await integrators.createIntegrator(`xml bench ${new Date().toISOString()}`);
  const companies = {};
  for (const [name, vat] of [
    ['seller', SELLER_VAT],
    ['lister', LISTER_VAT],
  ]) {
    const [{ id }] = await db.query(`INSERT INTO companies (name, vat_number, country, fiscal_regime) VALUES ($1, $2, 'IT', 'RF01') RETURNING id`, [
      `Bench ${name}`,
      `IT${vat}`,
    ]);
    await integrators.grant(integrator.id, id);
    companies[name] = id;
  }
  const key = await integrators.createKey(integrator.id, undefined, 'xml bench');
  return { db, key: key.key, companies };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

await main();

/** The sender threads of FILES (bench/xml-sender.mjs). */
function startSenders(base, headers, company) {
  const files = { attributes: () => manyAttributesXml().toString(), lines: () => manyLinesXml(25_000) };
  return FILES.map((kind) => {
    const xml = files[kind]();
    const thread = new Worker(new URL('./xml-sender.mjs', import.meta.url), { workerData: { base, headers, company, kind, xml } });
    const state = { kind, thread, statuses: {}, ms: [], bytes: Buffer.byteLength(xml), stopped: null };
    thread.on('error', (error) => console.error(`the ${kind} sender failed:`, error));
    thread.on('message', (message) => {
      if (message === 'stopped') state.stopped?.();
      else {
        state.ms.push(message.ms);
        state.statuses[message.status] = (state.statuses[message.status] ?? 0) + 1;
      }
    });
    return state;
  });
}

async function main() {
  const { db, key, companies } = await prepare();
  const port = await freePort();
  const api = startApi(benchEnv(databaseUrl), port);
  const base = `http://127.0.0.1:${port}/api/v1`;
  const headers = { authorization: `Bearer ${key}` };
  const listUrl = `${base}/companies/${companies.lister}/documents?page_size=25&expand=flows`;
  let senders = [];
  try {
    await waitFor(`${base}/companies`, headers);
    // The lister's documents, for its list call to show; and a first large file, so that the readers are up.
    for (let n = 0; n < 30; n++) {
      const body = Buffer.from(invoiceToXml(exampleInvoice({ sellerVat: LISTER_VAT, number: `LIST-${n}` })));
      const response = await post(base, headers, companies.lister, body);
      if (response.status !== 201) throw new Error(`seeding answered ${response.status}: ${await response.text()}`);
    }
    senders = startSenders(base, headers, companies.seller);

    // Rounds alternate idle and busy phases, so that load from elsewhere on the machine weighs on both alike.
    const ROUNDS = 4;
    const idle = [];
    const busy = [];
    let cpuIdle = 0;
    let cpuBusy = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const idleStart = cpuMs(api.pid);
      idle.push(...(await listLatencies(listUrl, headers, SECONDS / 2 / ROUNDS)));
      cpuIdle += cpuMs(api.pid) - idleStart;

      const busyStart = cpuMs(api.pid);
      for (const { thread } of senders) thread.postMessage('start');
      busy.push(...(await listLatencies(listUrl, headers, SECONDS / ROUNDS)));
      await Promise.all(
        senders.map((state) => {
          const stopped = new Promise((resolve) => (state.stopped = resolve));
          state.thread.postMessage('stop');
          return stopped;
        }),
      );
      cpuBusy += cpuMs(api.pid) - busyStart;
    }

    const fmt = (value, width = 10) => value.toFixed(1).padStart(width);
    console.log(`\nGET documents (page_size=25, expand=flows) of one company, sequential, ${ROUNDS} alternating rounds`);
    console.log(`idle                    ${String(idle.length).padStart(6)} calls   p99 ${fmt(p99(idle))} ms`);
    console.log(`while another sends    ${String(busy.length).padStart(6)} calls   p99 ${fmt(p99(busy))} ms`);
    console.log(`ratio                   ${(p99(busy) / p99(idle)).toFixed(3)}   (target ≤ 2)`);
    console.log(`\nmeanwhile, one of each in flight from another company (each kind sent from a thread of its own):`);
    const labels = { attributes: '100,000 attributes', lines: '25,000 lines' };
    for (const { kind, statuses, ms, bytes } of senders) {
      const label = `${labels[kind]} (${(bytes / 1024 / 1024).toFixed(2)} MiB)`;
      console.log(`${label.padEnd(30)} ${JSON.stringify(statuses).padEnd(14)} median ${fmt(median(ms))} ms`);
    }
    if (cpuMs(api.pid) !== null) {
      // CPU time is what a busy machine disturbs least: the API's own cost per heavy file, lists' share taken out.
      const perList = cpuIdle / idle.length;
      const files = senders.reduce((sum, { ms }) => sum + ms.length, 0);
      console.log(`\nAPI process CPU (its event loop and threads; the readers are child processes)`);
      console.log(`per list call, idle                  ${fmt(perList)} ms`);
      console.log(`per heavy file, lists' share removed ${fmt((cpuBusy - busy.length * perList) / files)} ms   (${files} files)`);
    }
  } finally {
    await Promise.all(senders.map(({ thread }) => thread.terminate()));
    api.kill();
    await db.destroy();
  }
}
