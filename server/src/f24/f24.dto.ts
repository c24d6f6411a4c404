import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { F24_SECTION_KINDS } from './f24-form.js';
import { F24_FAILURE_REASONS } from './f24-parser.js';
import { EventEnvelopeDto } from '../common/events/event-envelope.dto.js';

export const F24_REQUEST_STATUSES = ['WAITING_OCR', 'PROCESSED', 'FAILED'] as const;
export type F24RequestStatus = (typeof F24_REQUEST_STATUSES)[number];

const AMOUNT = { pattern: '^-?\\d{1,15}\\.\\d{2}$' } as const;

@ApiSchema({ name: 'F24Accepted' })
export class F24AcceptedDto {
  @ApiProperty({ format: 'uuid', description: 'The request: read it at the `Location` the answer gives.', example: '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b' })
  request_id: string;

  @ApiProperty({
    description: 'true when the company had already sent this very file (same bytes): `request_id` is that first request, nothing new is read or created.',
    example: false,
  })
  already_uploaded: boolean;
}

@ApiSchema({ name: 'F24AcceptedResponse' })
export class F24AcceptedResponseDto {
  @ApiProperty({ type: F24AcceptedDto })
  data: F24AcceptedDto;
}

@ApiSchema({ name: 'F24Line' })
export class F24LineDto {
  @ApiProperty({ description: 'Codice tributo (Erario, Regioni, tributi locali) or causale contributo (INPS, INAIL, altri enti).', example: '1001' })
  code: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "Codice sede, codice ente, codice regione or codice comune, where the section has one; on the F24 Elide, the line's tipo.",
    example: null,
  })
  office: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Rateazione / mese di riferimento, matricola INPS, codice ditta or codice posizione, as printed; on the F24 Elide, the elementi identificativi.',
    example: null,
  })
  reference: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Anno or periodo di riferimento as printed (`2026`, `02/2026`).', example: '2026' })
  period: string | null;

  @ApiProperty({ type: String, nullable: true, ...AMOUNT, description: 'Importo a debito versato, in euro; null when the box is empty.', example: '1234.56' })
  debit: string | null;

  @ApiProperty({ type: String, nullable: true, ...AMOUNT, description: 'Importo a credito compensato, in euro; null when the box is empty.', example: null })
  credit: string | null;
}

@ApiSchema({ name: 'F24Section' })
export class F24SectionDto {
  @ApiProperty({
    enum: F24_SECTION_KINDS,
    description: 'ERARIO, INPS, REGIONI, TRIBUTI_LOCALI (IMU e altri tributi locali), INAIL, ALTRI_ENTI (altri enti previdenziali e assicurativi).',
    example: 'ERARIO',
  })
  kind: string;

  @ApiProperty({ type: [F24LineDto] })
  lines: F24LineDto[];

  @ApiProperty({
    ...AMOUNT,
    description:
      "The section's total debit (A, C, E, G, I, M), equal to its lines' (on the semplificato and the Elide, which print no section totals, its lines added up).",
    example: '1234.56',
  })
  total_debit: string;

  @ApiProperty({
    ...AMOUNT,
    description: "The section's total credit (B, D, F, H, L, N), equal to its lines' (added up on the semplificato and the Elide).",
    example: '0.00',
  })
  total_credit: string;

  @ApiProperty({ ...AMOUNT, description: 'Saldo of the section: debit less credit, negative when its credits are larger.', example: '1234.56' })
  balance: string;
}

@ApiSchema({ name: 'F24Form' })
export class F24FormDto {
  @ApiProperty({
    description: "The contributor's codice fiscale: 11 digits for a company (its partita IVA), 16 characters for a person.",
    example: '01234567897',
  })
  tax_code: string;

  @ApiProperty({ format: 'date', description: 'Data di versamento: when the saldo is paid.', example: '2026-03-16' })
  payment_date: string;

  @ApiProperty({
    ...AMOUNT,
    description: 'Saldo finale in euro: the sections added up, what the bank debits (0.00 when credits cover every debit).',
    example: '1234.56',
  })
  saldo: string;

  @ApiProperty({ type: [F24SectionDto], description: 'The sections the form fills, in the order of the form.' })
  sections: F24SectionDto[];
}

@ApiSchema({ name: 'F24Failure' })
export class F24FailureDto {
  @ApiProperty({
    enum: F24_FAILURE_REASONS,
    description:
      "Why the form was not turned into a document: `unreadable_file` (the PDF cannot be opened), `not_an_f24` (no section of the form found), `tax_code_unreadable` / `tax_code_invalid` (the contributor's codice fiscale not read, or failing its check character), `contributor_not_company` (the form is another contributor's), `amount_unreadable` / `field_unreadable` (OCR not sure of an amount or a code: Flusso never guesses one), `section_totals_mismatch` (a section's totals differ from its lines), `saldo_mismatch` (the saldo finale differs from the sections), `payment_date_unreadable`.",
    example: 'section_totals_mismatch',
  })
  reason: string;

  @ApiProperty({
    description: 'What was found, in words, to show as is.',
    example: "The SEZIONE ERARIO section's lines add up to 1234.56 debit and 0.00 credit, its totals say 1243.56 and 0.00.",
  })
  detail: string;
}

@ApiSchema({ name: 'F24Request' })
export class F24RequestDto {
  @ApiProperty({ format: 'uuid', example: '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b' })
  id: string;

  @ApiProperty({
    enum: F24_REQUEST_STATUSES,
    description: '`WAITING_OCR` while the file waits to be read, `PROCESSED` once its document exists, `FAILED` with `failure`.',
    example: 'PROCESSED',
  })
  status: F24RequestStatus;

  @ApiProperty({ type: String, nullable: true, description: 'The `file_name` sent with the file.', example: 'F24-marzo-2026.pdf' })
  file_name: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The `label` sent with the file.', example: 'IVA e ritenute marzo' })
  label: string | null;

  @ApiProperty({ enum: ['application/pdf', 'image/png', 'image/jpeg'], description: 'The kind of file, from its content.', example: 'application/pdf' })
  media_type: string;

  @ApiProperty({ description: 'Size of the file in bytes.', example: 18432 })
  size: number;

  @ApiProperty({
    description: "The file's SHA-256, hexadecimal: the same file sent again is recognised by it.",
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  })
  sha256: string;

  @ApiProperty({
    type: [String],
    nullable: true,
    enum: ['text', 'ocr'],
    description: "How each page was read once processed: `text` (the PDF's text layer) or `ocr` (a scan, read by OCR); null while waiting.",
    example: ['text'],
  })
  pages: string[] | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'The F24 document made from the form (type `F24`), once PROCESSED.',
    example: 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a',
  })
  document_id: string | null;

  @ApiProperty({ type: F24FormDto, nullable: true, description: 'What was read from the form, once PROCESSED.' })
  form: F24FormDto | null;

  @ApiProperty({ type: F24FailureDto, nullable: true, description: 'Why the form was refused, when FAILED.' })
  failure: F24FailureDto | null;

  @ApiProperty({
    description: 'Where the file as sent can be downloaded (the API, with the same key).',
    example: '/api/v1/companies/8a0c2e4f-1b3d-4f5a-9c7e-2d4f6a8c0e1b/requests/f24/6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b/file',
  })
  file_url: string;

  @ApiProperty({ format: 'date-time', example: '2026-03-10T09:30:00.000Z' })
  created_at: string;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'When the worker finished with the file.',
    example: '2026-03-10T09:30:02.000Z',
  })
  processed_at: string | null;
}

/** The body of the `f24.processed` and `f24.failed` webhooks: the request as getF24Request answers it. */
@ApiSchema({ name: 'F24Event' })
export class F24EventDto extends EventEnvelopeDto {
  @ApiProperty({ enum: ['f24.processed', 'f24.failed'], example: 'f24.processed' })
  event: 'f24.processed' | 'f24.failed';

  @ApiProperty({ enum: ['f24.processed', 'f24.failed'], example: 'f24.processed', description: 'The event type (the same as `event`).' })
  type: 'f24.processed' | 'f24.failed';

  @ApiProperty({ type: () => F24RequestDto, description: 'The request once read: PROCESSED with `form` and `document_id`, or FAILED with `failure`.' })
  data: F24RequestDto;
}

/**
 * The request example: the smallest PDF with a text layer, written by hand (pdfjs rebuilds its missing cross-reference
 * table), so the reference and the Postman suite can send a real file as text.
 */
export const EXAMPLE_PDF = [
  '%PDF-1.4',
  '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
  '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
  '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj',
  '4 0 obj << /Length 66 >> stream',
  'BT /F1 12 Tf 40 800 Td (MODELLO DI PAGAMENTO UNIFICATO F24) Tj ET',
  'endstream endobj',
  '5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj',
  'trailer << /Root 1 0 R >>',
  '%%EOF',
  '',
].join('\n');
