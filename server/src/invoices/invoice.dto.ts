import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DocumentDto } from '../documents/document.dto.js';
import { invoiceJsonSchemas, invoiceToXml } from './fatturapa/index.js';
import { exampleInvoice } from './invoice-example.js';

/** The answer of invoice creation: the documents created (one), as a list without `page` (spec section 7). */
@ApiSchema({ name: 'CreatedDocuments' })
export class CreatedDocumentsDto {
  @ApiProperty({ type: () => [DocumentDto], description: 'The documents created from the invoice: one.' })
  data: DocumentDto[];
}

const example = exampleInvoice();
const { progressivo_invio: _omitted, ...transmission } = example.fattura_elettronica_header.dati_trasmissione;

/**
 * The request examples, one per media type: `xml` for application/xml, `json` for application/json (the OpenAPI
 * document keeps each under its own media type).
 */
export const INVOICE_EXAMPLES = {
  xml: { summary: 'FatturaPA XML (FPR12, TD01)', value: invoiceToXml(example, { pretty: true }) },
  json: {
    summary: 'The same invoice as JSON (progressivo_invio left to Flusso)',
    value: { ...example, fattura_elettronica_header: { ...example.fattura_elettronica_header, dati_trasmissione: transmission } },
  },
};

const invoiceSchema = invoiceJsonSchemas().Invoice;

/**
 * The invoice response: the members of the invoice's JSON form plus `xml_url`. A copy of the root's members rather
 * than `allOf` with it: the invoice admits no other member, so `allOf` would refuse `xml_url`.
 */
export const InvoiceResponseSchema = {
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
};
