import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Field } from './model-kit.js';
import { GROUPS } from './model.js';
import { invoiceJsonSchemas, type JsonSchema } from './openapi.js';
import { fieldsOf } from './schema-walk.js';
import { invoiceXsd } from './xsd.js';

describe('the OpenAPI schema of the JSON invoice', () => {
  const schemas = invoiceJsonSchemas();

  it('is a valid OpenAPI 3.0 components section', async () => {
    const document = { openapi: '3.0.3', info: { title: 'invoice', version: '1' }, paths: {}, components: { schemas } };
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('has the spec’s top level: versione, namespace, sistema_emittente, the header and a list of bodies, and the read-only signature', () => {
    expect(Object.keys(schemas.Invoice.properties ?? {})).toEqual([
      'versione',
      'namespace',
      'sistema_emittente',
      'fattura_elettronica_header',
      'fattura_elettronica_body',
      'signature',
    ]);
    expect(schemas.Invoice.properties?.signature).toMatchObject({ type: 'string', readOnly: true });
    expect(schemas.Invoice.required).toEqual(['versione', 'fattura_elettronica_header', 'fattura_elettronica_body']);
    expect(schemas.Invoice.properties?.fattura_elettronica_body.type).toBe('array');
  });

  it('documents every member of every block with its Italian element name and meaning', () => {
    for (const [name, group] of Object.entries(GROUPS)) {
      const schema = schemas[name === 'FatturaElettronica' ? 'Invoice' : `Invoice${name}`];
      for (const field of fieldsOf(group) as Field[]) {
        // A block with a choice keeps its members in the branches of its oneOf.
        const property = [schema, ...(schema.oneOf ?? [])].map((s) => s.properties?.[field.json]).find(Boolean) as JsonSchema;
        expect({
          name,
          member: field.json,
          documented: property?.description?.includes(`**${field.xml}**`) && property.description.includes(field.meaning),
        }).toEqual({
          name,
          member: field.json,
          documented: true,
        });
      }
    }
  });

  it('types the spec’s integers as integers, amounts as strings, codes as enums, and lists as arrays', () => {
    expect(schemas.InvoiceDatiTrasporto.properties?.numero_colli).toMatchObject({ type: 'integer', minimum: 1, maximum: 9999 });
    expect(schemas.InvoiceDettaglioPagamento.properties?.giorni_termini_pagamento).toMatchObject({ type: 'integer' });
    expect(schemas.InvoiceDatiDocumentiCorrelati.properties?.riferimento_numero_linea).toMatchObject({ type: 'array', items: { type: 'integer' } });
    expect(schemas.InvoiceDatiRiepilogo.properties?.imponibile_importo).toMatchObject({ type: 'string', pattern: '^(?:[\\-]?[0-9]{1,11}\\.[0-9]{2})$' });
    expect(schemas.InvoiceDatiGeneraliDocumento.properties?.tipo_documento.enum).toContain('TD29');
    expect(schemas.InvoiceDatiAnagraficiCedente.properties?.regime_fiscale.enum).toContain('RF20');
    expect(schemas.InvoiceDatiBeniServizi).toMatchObject({ required: ['dettaglio_linee', 'dati_riepilogo'] });
    expect(schemas.InvoiceAnagrafica.oneOf).toHaveLength(2);
  });

  it('writes a choice as one closed object per branch, so clients generate a union and each branch lists its members', () => {
    const members = (schema: JsonSchema) => ({
      properties: Object.keys(schema.properties ?? {}),
      required: schema.required,
      closed: schema.additionalProperties === false,
    });
    expect(schemas.InvoiceAnagrafica.properties).toBeUndefined();
    expect(schemas.InvoiceAnagrafica.oneOf?.map(members)).toEqual([
      { properties: ['denominazione', 'titolo', 'cod_eori'], required: ['denominazione'], closed: true },
      { properties: ['nome', 'cognome', 'titolo', 'cod_eori'], required: ['nome', 'cognome'], closed: true },
    ]);
    // A member the block always requires is required in every branch.
    expect(schemas.InvoiceRappresentanteFiscaleCessionario.oneOf?.map((branch) => branch.required)).toEqual([
      ['id_fiscale_iva', 'denominazione'],
      ['id_fiscale_iva', 'nome', 'cognome'],
    ]);
  });

  it('accepts exactly one branch of a choice: a company name, or a first name and a surname', () => {
    const ajv = new Ajv2020({ strict: false });
    const valid = ajv.compile({ ...schemas.InvoiceAnagrafica });
    expect([{ denominazione: 'Rossi S.r.l.' }, { nome: 'Mario', cognome: 'Rossi', titolo: 'Dott.' }].map((a) => valid(a))).toEqual([true, true]);
    expect(
      [{}, { nome: 'Mario' }, { denominazione: 'Rossi S.r.l.', nome: 'Mario', cognome: 'Rossi' }, { denominazione: 'R', extra: 1 }].map((a) => valid(a)),
    ).toEqual([false, false, false, false]);
  });

  it('documents Flusso’s product_id on a line as an optional, write-only uuid that is no FatturaPA element (nor in the XSD)', () => {
    const line = schemas.InvoiceDettaglioLinee;
    expect(line.properties?.product_id).toEqual({
      type: 'string',
      format: 'uuid',
      writeOnly: true,
      description: expect.stringMatching(/^\*\*Flusso extension\*\*, not a FatturaPA element: .*`descrizione`.*`natura`/),
    });
    expect(line.required).not.toContain('product_id');
    expect(Object.keys(line.properties ?? {}).at(-1)).toBe('product_id');
    expect(invoiceXsd()).not.toContain('product_id');
  });
});
