// F24 forms for the benchmark and the scanned-accuracy script: made deterministically (a seeded generator) by the one
// writer (dist/server/src/f24/f24-writer.js) on the ordinary layout, the semplificato or the Elide, and "scanned":
// rendered by pdfjs at a given dpi, turned by a small angle and sprinkled with noise on a canvas, as a flatbed scanner
// hands them over.
import { openPdf } from '../dist/server/src/f24/f24-pdf.js';
import { writeF24Pdf } from '../dist/server/src/f24/f24-writer.js';
import { fromCents } from '../dist/server/src/f24/f24-form.js';

/** A small linear congruential generator: the same seed, the same forms, run after run. */
export function generator(seed) {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const ERARIO_CODES = ['1001', '1040', '6001', '6002', '6003', '6031', '1712', '1713', '2003'];
const INPS_CAUSALI = ['DM10', 'CXX', 'AF', 'RC01'];

/** The `index`-th form of a set: 1 to 4 sections, 1 to 4 lines each, now and then a credit, always a positive saldo. */
export function sampleForm(taxCode, index, random = generator(1000 + index)) {
  const amount = (max) => fromCents(Math.round(1000 + random() * max * 100));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const count = (max) => 1 + Math.floor(random() * max);
  const sections = [];
  const erario = Array.from({ length: count(4) }, () => ({
    code: pick(ERARIO_CODES),
    office: null,
    reference: null,
    period: '2026',
    debit: amount(4000),
    credit: null,
  }));
  if (random() < 0.4) erario.push({ code: '6099', office: null, reference: null, period: '2025', debit: null, credit: amount(200) });
  sections.push({ kind: 'ERARIO', lines: erario });
  if (random() < 0.7) {
    const lines = Array.from({ length: count(2) }, () => ({
      code: pick(INPS_CAUSALI),
      office: '5100',
      reference: String(5100000000 + Math.floor(random() * 999999)),
      period: '02/2026',
      debit: amount(2500),
      credit: null,
    }));
    sections.push({ kind: 'INPS', lines });
  }
  if (random() < 0.4)
    sections.push({ kind: 'REGIONI', lines: [{ code: '3802', office: '08', reference: null, period: '2025', debit: amount(600), credit: null }] });
  if (random() < 0.4)
    sections.push({ kind: 'TRIBUTI_LOCALI', lines: [{ code: '3918', office: 'F205', reference: null, period: '2026', debit: amount(900), credit: null }] });
  const day = String(1 + (index % 28)).padStart(2, '0');
  return { tax_code: taxCode, name: 'ROSSI FORNITURE S.R.L.', payment_date: `2026-03-${day}`, sections };
}

const TIPI = ['F', 'R'];
const ELIDE_CODES = ['1500', '1501', '1503', '1504', '1505'];

/**
 * The `index`-th form of a set on the printing `model`: ORDINARIO as sampleForm; SEMPLIFICATO with 1 to 5 lines of
 * Erario, Regioni and IMU (EL) now and then an Erario credit, in one table with their Sezione; ELIDE with 1 to 3 lines
 * of a lease's taxes (tipo, the contract's code). Always a positive saldo.
 */
export function sampleFormOf(model, taxCode, index) {
  if (model === 'ORDINARIO') return sampleForm(taxCode, index);
  const random = generator(2000 + index);
  const amount = (max) => fromCents(Math.round(1000 + random() * max * 100));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const day = String(1 + (index % 28)).padStart(2, '0');
  const base = { model, tax_code: taxCode, name: 'VERDI GIUSEPPE', payment_date: `2026-06-${day}` };
  if (model === 'ELIDE') {
    const contract = `TML26T00${String(1000 + Math.floor(random() * 8999))}000${pick(['AB', 'CD', 'EF'])}`;
    const tipo = pick(TIPI);
    const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
      code: pick(ELIDE_CODES),
      office: tipo,
      reference: contract,
      period: '2026',
      debit: amount(900),
      credit: null,
    }));
    return { ...base, sections: [{ kind: 'ERARIO', lines }] };
  }
  const sections = [];
  const imu = Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({
    code: pick(['3912', '3916', '3918']),
    office: pick(['F205', 'H501', 'L219']),
    reference: '0101',
    period: '2026',
    debit: amount(1500),
    credit: null,
  }));
  sections.push({ kind: 'TRIBUTI_LOCALI', lines: imu });
  const erario = [{ code: pick(['4033', '4034', '1840']), office: null, reference: '0101', period: '2026', debit: amount(3000), credit: null }];
  if (random() < 0.4) erario.push({ code: '4001', office: null, reference: null, period: '2025', debit: null, credit: amount(150) });
  if (random() < 0.7) sections.push({ kind: 'ERARIO', lines: erario });
  if (random() < 0.5)
    sections.push({ kind: 'REGIONI', lines: [{ code: '3801', office: '08', reference: '0101', period: '2025', debit: amount(500), credit: null }] });
  return { ...base, sections };
}

export const formPdf = (form) => writeF24Pdf(form);

/**
 * The PDF's first page as a scan: rendered at `dpi` on pdfjs's own canvas, turned by `degrees` around its centre on a
 * white page, with `noise` (0–1) of its pixels set to random greys.
 */
export async function scanOf(pdfBytes, { dpi = 200, degrees = 0, noise = 0, seed = 1 } = {}) {
  const pdf = await openPdf(pdfBytes);
  try {
    const page = await pdf.getPage(1);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const factory = pdf.canvasFactory;
    const width = Math.ceil(viewport.width);
    const height = Math.ceil(viewport.height);
    const rendered = factory.create(width, height);
    rendered.context.fillStyle = '#ffffff';
    rendered.context.fillRect(0, 0, width, height);
    await page.render({ canvas: rendered.canvas, canvasContext: rendered.context, viewport }).promise;
    const scanned = factory.create(width, height);
    const context = scanned.context;
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.translate(width / 2, height / 2);
    context.rotate((degrees * Math.PI) / 180);
    context.drawImage(rendered.canvas, -width / 2, -height / 2);
    context.setTransform(1, 0, 0, 1, 0, 0);
    if (noise > 0) {
      const random = generator(seed);
      const image = context.getImageData(0, 0, width, height);
      for (let i = 0; i < image.data.length; i += 4) {
        if (random() >= noise) continue;
        const grey = Math.floor(random() * 256);
        image.data[i] = image.data[i + 1] = image.data[i + 2] = grey;
      }
      context.putImageData(image, 0, 0);
    }
    return scanned.canvas.toBuffer('image/png');
  } finally {
    await pdf.destroy();
  }
}
