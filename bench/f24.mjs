// F24 pages per second (issue 20): through the real API and worker (their own processes, PostgreSQL, Redis: upload,
// dispatch, the BullMQ job, reading, checks, the document and its event) for text PDFs and for scans, next to the
// PDF library (pdfjs-dist: open, text of the page) and tesseract (the worker's OCR on the same image) alone on the same
// pages in this process, as a ratio. Run with `npm run bench:f24` (builds first). F24_TEXT_PAGES (default 40) text
// forms and F24_SCAN_PAGES (default 4) scans; the database BENCH_DATABASE_URL (default …/flusso_bench_f24) is made
// afresh on every run.
import 'reflect-metadata';
import { benchDatabaseUrl, benchEnv, freePort, freshDatabase, startApi, startWorker, waitFor } from './support.mjs';
import { loadConfig } from '../dist/server/src/config/config.js';
import { IntegratorsService } from '../dist/server/src/integrators/integrators.service.js';
import { openPdf, pageText } from '../dist/server/src/f24/f24-pdf.js';
import { F24Ocr, findTessdata } from '../dist/server/src/f24/f24-ocr.js';
import { formPdf, sampleForm, scanOf } from './f24-forms.mjs';

const TEXT_PAGES = Number(process.env.F24_TEXT_PAGES ?? 40);
const SCAN_PAGES = Number(process.env.F24_SCAN_PAGES ?? 4);
const TAX_CODE = '01234567897';
const databaseUrl = benchDatabaseUrl('flusso_bench_f24', process.env.BENCH_DATABASE_URL);

const db = await freshDatabase(databaseUrl);
const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
const integrators = new IntegratorsService(db, config, async () => undefined);
const integrator = await integrators.createIntegrator(`f24 bench ${new Date().toISOString()}`);
const [{ id: companyId }] = await db.query(
  `INSERT INTO companies (name, vat_number, country, fiscal_regime) VALUES ('Bench F24', $1, 'IT', 'RF01') RETURNING id`,
  [`IT${TAX_CODE}`],
);
await integrators.grant(integrator.id, companyId);
const { key } = await integrators.createKey(integrator.id, undefined, 'f24 bench');
await db.destroy();

console.log(`making ${TEXT_PAGES} text forms and ${SCAN_PAGES} scans (200 dpi)…`);
const texts = await Promise.all(Array.from({ length: TEXT_PAGES }, (_, i) => formPdf(sampleForm(TAX_CODE, i))));
const scans = [];
for (let i = 0; i < SCAN_PAGES; i++) scans.push(await scanOf(await formPdf(sampleForm(TAX_CODE, 1000 + i)), { dpi: 200 }));

const port = await freePort();
const env = benchEnv(databaseUrl);
const api = startApi(env, port);
const worker = startWorker(env);
const base = `http://127.0.0.1:${port}/api/v1/companies/${companyId}/requests/f24`;
const auth = { authorization: `Bearer ${key}` };

try {
  await waitFor(`http://127.0.0.1:${port}/api/v1/companies`, auth);

  /** Sends every file, then waits until each request is no longer WAITING_OCR; pages per second from the first send. */
  async function throughWorker(files, type) {
    const started = performance.now();
    const locations = [];
    for (const file of files) {
      const answer = await fetch(`${base}/ocr`, { method: 'POST', headers: { ...auth, 'content-type': type }, body: file });
      if (answer.status !== 202) throw new Error(`upload answered ${answer.status}: ${await answer.text()}`);
      locations.push(answer.headers.get('location'));
    }
    const outcomes = {};
    for (const location of locations) {
      for (;;) {
        const request = await (await fetch(`http://127.0.0.1:${port}${location}`, { headers: auth })).json();
        if (request.status !== 'WAITING_OCR') {
          const outcome = request.failure ? `FAILED ${request.failure.reason}` : request.status;
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return { pagesPerSecond: files.length / ((performance.now() - started) / 1000), outcomes };
  }

  async function pdfjsAlone(files) {
    const started = performance.now();
    for (const file of files) {
      const pdf = await openPdf(file);
      await pageText(pdf, 1);
      await pdf.destroy();
    }
    return files.length / ((performance.now() - started) / 1000);
  }

  async function tesseractAlone(files) {
    const found = findTessdata();
    if ('missing' in found) throw new Error(found.missing);
    const ocr = new F24Ocr(found.dir);
    await ocr.read(files[0]); // the language data loaded once, as the worker keeps it
    const started = performance.now();
    for (const file of files) await ocr.read(file);
    const rate = files.length / ((performance.now() - started) / 1000);
    await ocr.close();
    return rate;
  }

  const text = await throughWorker(texts, 'application/pdf');
  const textAlone = await pdfjsAlone(texts);
  console.log(
    `text PDFs: ${text.pagesPerSecond.toFixed(1)} pages/s through the worker ${JSON.stringify(text.outcomes)}; pdfjs alone ${textAlone.toFixed(1)} pages/s; ratio ${(text.pagesPerSecond / textAlone).toFixed(2)}`,
  );
  const scan = await throughWorker(scans, 'image/png');
  const scanAlone = await tesseractAlone(scans);
  console.log(
    `scans: ${scan.pagesPerSecond.toFixed(3)} pages/s through the worker ${JSON.stringify(scan.outcomes)}; tesseract alone ${scanAlone.toFixed(3)} pages/s; ratio ${(scan.pagesPerSecond / scanAlone).toFixed(2)}`,
  );
} finally {
  api.kill();
  worker.kill();
}
