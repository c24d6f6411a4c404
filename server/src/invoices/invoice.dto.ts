import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DocumentDto } from '../documents/document.dto.js';
import { invoiceJsonSchemas, invoiceToXml, type JsonSchema } from './fatturapa/index.js';
import { EXAMPLE_SELLER_VAT, exampleInvoice, exampleSimplifiedInvoice } from './invoice-example.js';

/** The answer of invoice creation: the documents created (one), as a list without `page` (spec section 7). */
@ApiSchema({ name: 'CreatedDocuments' })
export class CreatedDocumentsDto {
  @ApiProperty({ type: () => [DocumentDto], description: 'The documents created from the invoice: one.' })
  data: DocumentDto[];
}

const example = exampleInvoice();
const { progressivo_invio: _omitted, ...transmission } = example.fattura_elettronica_header.dati_trasmissione;
const simplified = exampleSimplifiedInvoice();
const { progressivo_invio: _too, ...simplifiedTransmission } = simplified.fattura_elettronica_header.dati_trasmissione;

/**
 * The request examples, by media type: `xml…` for application/xml, `json…` for application/json (the OpenAPI document
 * keeps each under its own media type): an ordinary invoice, and a simplified one.
 */
export const INVOICE_EXAMPLES = {
  xml: { summary: 'FatturaPA XML (FPR12, TD01)', value: invoiceToXml(example, { pretty: true }) },
  json: {
    summary: 'The same invoice as JSON (progressivo_invio left to Flusso)',
    value: { ...example, fattura_elettronica_header: { ...example.fattura_elettronica_header, dati_trasmissione: transmission } },
  },
  xml_simplified: { summary: 'Simplified invoice XML (FSM10, TD07)', value: invoiceToXml(simplified, { pretty: true }) },
  json_simplified: {
    summary: 'The same simplified invoice as JSON',
    value: { ...simplified, fattura_elettronica_header: { ...simplified.fattura_elettronica_header, dati_trasmissione: simplifiedTransmission } },
  },
};

const schemas = invoiceJsonSchemas();

/**
 * The invoice response of one format: the members of the invoice's JSON form plus `xml_url` and `signed_file_url`. A
 * copy of the root's members rather than `allOf` with it: the invoice admits no other member, so `allOf` would refuse
 * `xml_url`.
 */
const responseOf = (invoiceSchema: JsonSchema) => ({
  ...invoiceSchema,
  description: `${invoiceSchema.description} With \`xml_url\`, the link to its XML file, and \`signed_file_url\`, the link to the signed file it came in.`,
  required: [...(invoiceSchema.required ?? []), 'xml_url', 'signed_file_url'],
  properties: {
    ...invoiceSchema.properties,
    xml_url: {
      type: 'string',
      format: 'uri',
      nullable: true,
      description:
        'A link to the XML file that works without an API key until it expires (15 minutes unless configured otherwise); null until the invoice has been sent to the SDI.',
      example:
        'https://api.flusso.example/api/v1/invoice-files/5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c?expires=1775037600&signature=hq1Xr5bq0n0mJ3z8yKQ4T2cW8mFQm9y6XkJpZ7dLw1A',
    },
    signed_file_url: {
      type: 'string',
      format: 'uri',
      nullable: true,
      description:
        'For an invoice sent as a signed file (`application/pkcs7-mime`, .p7m): a link to that file exactly as received, on the same terms as `xml_url` (whose XML is the one the envelope carries). Null for an invoice sent as XML or JSON, and until the invoice has been sent to the SDI.',
      example: null,
    },
  },
});

/** The invoice response: an ordinary invoice or a simplified one (`versione` FSM10), with the links to its files. */
export const InvoiceResponseSchema = {
  description: 'The invoice of the document in its JSON form, ordinary or simplified as `versione` says, with the links to its files.',
  oneOf: [responseOf(schemas.Invoice), responseOf(schemas.SimplifiedInvoice)],
};

/**
 * A supplier's invoice to the example company (the demo company's VAT number as the buyer), as the sandbox's
 * receive-invoice call takes it: the example's parties the other way round.
 */
const supplierInvoice = (() => {
  const invoice = exampleInvoice({ sellerVat: '09876543217', number: '118/2026' });
  const header = invoice.fattura_elettronica_header;
  header.cedente_prestatore.dati_anagrafici.anagrafica = { denominazione: 'Bianchi Costruzioni S.p.A.' };
  header.cessionario_committente.dati_anagrafici = {
    id_fiscale_iva: { id_paese: 'IT', id_codice: EXAMPLE_SELLER_VAT },
    codice_fiscale: EXAMPLE_SELLER_VAT,
    anagrafica: { denominazione: 'Rossi Forniture S.r.l.' },
  };
  return invoice;
})();

export const RECEIVED_INVOICE_EXAMPLE = {
  summary: "A supplier's FatturaPA XML (FPR12, TD01) to the company",
  value: invoiceToXml(supplierInvoice, { pretty: true }),
};
