/**
 * JSON → XML: writes the JSON form of an invoice as a FatturaPA file with xmlbuilder2, elements in schema order, the
 * root in the FatturaPA namespace with the conventional prefix `p:` and its `versione` attribute, everything below it
 * unqualified (as the schema wants). Values are written as the JSON form holds them: it carries amounts, dates and
 * codes as strings already in the schema's format (validateInvoiceJson checks that), and integers as numbers.
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { Field, Group, InvoiceFormat } from './model-kit.js';
import { many } from './model-kit.js';
import { formatOfVersione } from './formats.js';
import { FATTURAPA_PREFIX } from './model.js';
import { fieldsOf } from './schema-walk.js';
import type { EInvoice } from './e-invoice.js';

type JsonObject = { [key: string]: unknown };

function writeField(format: InvoiceFormat, parent: XMLBuilder, field: Field, value: unknown) {
  if (value === undefined || value === null) return;
  for (const one of many(field.occurs) ? (value as unknown[]) : [value]) {
    const element = parent.ele(field.xml);
    if (typeof field.type === 'string') writeGroup(format, element, format.groups[field.type], one as JsonObject);
    else element.txt(String(one));
  }
}

function writeGroup(format: InvoiceFormat, element: XMLBuilder, group: Group, object: JsonObject) {
  for (const field of fieldsOf(group)) writeField(format, element, field, object[field.json]);
}

/** The FatturaPA XML of a valid invoice, ordinary or simplified as its `versione` says (validate it with validateInvoiceJson first). */
export function invoiceToXml(invoice: EInvoice, options: { pretty?: boolean } = {}): string {
  const json = invoice as unknown as JsonObject;
  const format = formatOfVersione(invoice.versione);
  const attributes: Record<string, string> = {};
  for (const attribute of format.rootAttributes) {
    if (json[attribute.json] !== undefined && json[attribute.json] !== null) attributes[attribute.xml] = String(json[attribute.json]);
  }
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc.ele(format.namespace, `${FATTURAPA_PREFIX}:${format.root}`, attributes);
  writeGroup(format, root, format.groups[format.root], json);
  const xml = doc.end({ prettyPrint: options.pretty ?? true });
  // The signature of a file read from XML goes back as it was written there, character for character (the reader
  // keeps it standalone; validateInvoiceJson never lets a request set it).
  if (typeof json.signature !== 'string') return xml;
  const close = xml.lastIndexOf('</');
  return `${xml.slice(0, close)}${json.signature}${options.pretty === false ? '' : '\n'}${xml.slice(close)}`;
}
