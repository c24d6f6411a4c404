/**
 * Product defaults of JSON invoice lines (the `product_id` extension of the FatturaPA model): a line that names a
 * product of the company takes the product's values for the members it leaves out, before the invoice is validated.
 * Members the line gives win. Amounts the invoice declares (`prezzo_totale`, `dati_riepilogo`, payments) are not
 * computed: they stay the integrator's, and the SDI checks hold them to the prices the lines end up with.
 */
import { sameAmount } from '../common/money/money.js';
import { isUuid } from '../common/validation/uuid.js';
import type { CatalogueProduct } from './product-catalogue.js';
import type { InvoiceProblem } from './fatturapa/index.js';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
/** As the validator reads a JSON invoice: a null member is an absent one. */
const absent = (value: unknown) => value === undefined || value === null;
const DECIMAL = /^\d+(\.\d+)?$/;

/** A line that names a product. */
export interface ProductLine {
  /** JSON Pointer of the line (`/fattura_elettronica_body/0/dati_beni_servizi/dettaglio_linee/2`). */
  pointer: string;
  /** The same place as an XML path, as every invoice problem carries one. */
  path: string;
  line: JsonObject;
  /** The invoice's currency (`divisa`), when it is a string. */
  currency: string | undefined;
  /** Lowercase, as the database writes ids; null when malformed (the validator reports it). */
  productId: string | null;
}

/** The lines of a JSON invoice (not yet validated) that name a product. */
export function productLines(invoice: unknown): ProductLine[] {
  const lines: ProductLine[] = [];
  if (!isObject(invoice) || !Array.isArray(invoice.fattura_elettronica_body)) return lines;
  invoice.fattura_elettronica_body.forEach((body: unknown, b) => {
    if (!isObject(body)) return;
    const general = isObject(body.dati_generali) ? body.dati_generali.dati_generali_documento : undefined;
    const currency = isObject(general) && typeof general.divisa === 'string' ? general.divisa : undefined;
    const goods = body.dati_beni_servizi;
    const details = isObject(goods) ? goods.dettaglio_linee : undefined;
    if (!Array.isArray(details)) return;
    details.forEach((line: unknown, i) => {
      if (!isObject(line) || absent(line.product_id)) return;
      lines.push({
        pointer: `/fattura_elettronica_body/${b}/dati_beni_servizi/dettaglio_linee/${i}`,
        path: `/FatturaElettronicaBody/${b}/DatiBeniServizi/DettaglioLinee/${i}`,
        line,
        currency,
        productId: typeof line.product_id === 'string' && isUuid(line.product_id) ? line.product_id.toLowerCase() : null,
      });
    });
  });
  return lines;
}

/** What filling the lines found, for the problems of the invoice as it was filled. */
export interface ProductDefaults {
  problems: InvoiceProblem[];
  /** Each member filled from a product (by pointer), with the product, so that a problem with the value names it. */
  filled: Map<string, CatalogueProduct>;
  /** Lines whose product is not the company's (or is no id): the members they lack are not reported as well. */
  unresolved: string[];
}

/** Money amount → FatturaPA amount with at least two decimals (PrezzoUnitario: "8.50", "0.125"). */
function unitPrice(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

/** Fills, in place, the members each line leaves out from its product (`products`: the company's, by id). */
export function applyProductDefaults(lines: readonly ProductLine[], products: ReadonlyMap<string, CatalogueProduct>): ProductDefaults {
  const result: ProductDefaults = { problems: [], filled: new Map(), unresolved: [] };
  for (const { pointer, path, line, currency, productId } of lines) {
    if (productId === null) {
      result.unresolved.push(pointer);
      continue;
    }
    const product = products.get(productId);
    if (!product) {
      result.problems.push({
        pointer: `${pointer}/product_id`,
        path: `${path}/product_id`,
        kind: 'value',
        message: `"product_id" ${String(line.product_id)} is not a product of this company`,
      });
      result.unresolved.push(pointer);
      continue;
    }
    const fill = (member: string, value: string | null) => {
      if (value === null || !absent(line[member])) return;
      line[member] = value;
      result.filled.set(`${pointer}/${member}`, product);
    };
    fill('descrizione', product.description);
    if (absent(line.prezzo_unitario) && currency !== undefined && currency !== product.unit_price.currency) {
      result.problems.push({
        pointer: `${pointer}/prezzo_unitario`,
        path: `${path}/PrezzoUnitario`,
        kind: 'missing',
        message: `"prezzo_unitario" is required: product ${product.code} is priced in ${product.unit_price.currency} and the invoice is in ${currency}`,
      });
    } else {
      fill('prezzo_unitario', unitPrice(product.unit_price.amount));
    }
    fill('unita_misura', product.unit_of_measure);
    fill('aliquota_iva', product.vat_percentage);
    // The product's Natura says why its own rate (0) charges no VAT: a line at another rate doesn't take it.
    const rate = line.aliquota_iva;
    if (typeof rate === 'string' && DECIMAL.test(rate) && sameAmount(rate, product.vat_percentage)) fill('natura', product.tax_exemption);
  }
  return result;
}

/** Problems as they are, but those with a value taken from a product name it. */
export function namingProducts<P extends { pointer: string; message: string }>(defaults: ProductDefaults, problems: readonly P[]): P[] {
  return problems.map((p) => {
    const product = defaults.filled.get(p.pointer);
    return product ? { ...p, message: `${p.message} (the value of product ${product.code})` } : p;
  });
}

/**
 * The schema problems of a filled invoice, as the request should read them: the product problems first, then the
 * others but those the product problems already explain (what a line whose product is unknown lacks), naming products.
 */
export function withProductProblems(defaults: ProductDefaults, problems: readonly InvoiceProblem[]): InvoiceProblem[] {
  const explained = new Set(defaults.problems.map((p) => p.pointer));
  const unexplained = problems.filter(
    (p) => !explained.has(p.pointer) && !(p.kind === 'missing' && defaults.unresolved.some((line) => p.pointer.startsWith(`${line}/`))),
  );
  return [...defaults.problems, ...namingProducts(defaults, unexplained)];
}
