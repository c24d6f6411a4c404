import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { CategoryDto } from '../categories/category.dto.js';
import { CategoryIdChange, type ClassificationChanges, SubcategoryIdChange } from '../categories/classification.js';
import { MoneyDto } from '../common/money/money.js';
import { FreeText } from '../common/validation/free-text.js';
import { OptionalNullable } from '../common/validation/optional.js';
import { CounterpartDto } from '../counterparts/counterpart.dto.js';
import { FlowDto } from '../flows/flow.dto.js';
import { SectionalDto } from '../sectionals/sectional.dto.js';
import {
  DELIVERY_STATUS_PATTERN,
  DIRECTIONS,
  DOCUMENT_FORMATS,
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  type DeliveryStatus,
  type Direction,
  type DocumentFormat,
  type DocumentStatus,
  type DocumentType,
} from './document.enums.js';

@ApiSchema({ name: 'Document' })
export class DocumentDto {
  @ApiProperty({ format: 'uuid', example: '5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c' })
  id: string;

  @ApiProperty({ description: 'The document number chosen by the issuer, or taken from its sectional (`sectional_id`).', example: 'FV-2026/0042' })
  number: string;

  @ApiProperty({
    enum: DOCUMENT_TYPES,
    description:
      '`F24`: a tax payment form read from its PDF (createF24OcrRequest): its number is `F24 <payment date>`, its gross amount the saldo, its flow the payment due.',
    example: 'INVOICE',
  })
  type: DocumentType;

  @ApiProperty({
    enum: DOCUMENT_STATUSES,
    description:
      'DRAFT not finalized; CREATED finalized (an e-invoice is being sent to the SDI); SENT transmitted to the SDI; DELIVERED delivered to the recipient; NOT_DELIVERED transmitted but not delivered; DISCARDED invalid for the SDI; REFUSED refused by the recipient (typically a public administration).',
    example: 'DELIVERED',
  })
  status: DocumentStatus;

  @ApiProperty({
    enum: DOCUMENT_FORMATS,
    description:
      'FatturaPA format: FPA12 (to a public administration), FPR12 (between private parties), FSM10 (simplified invoice). ' +
      "An e-invoice has its file's format. Any other document has the one the SDI would give it: FPA12 when it is issued " +
      'to a counterpart with a 6-character destination code (a public administration office), else FPR12.',
    example: 'FPR12',
  })
  format: DocumentFormat;

  @ApiProperty({ type: Boolean, nullable: true, example: true })
  is_e_invoice: boolean | null;

  @ApiProperty({ type: MoneyDto, description: 'Total including VAT.' })
  gross_amount: MoneyDto;

  @ApiProperty({ type: MoneyDto })
  vat_amount: MoneyDto;

  @ApiProperty({ type: () => [FlowDto], nullable: true, description: 'Payment flows of the document; null unless `expand=flows`.' })
  flows: FlowDto[] | null;

  @ApiProperty({ format: 'uuid', type: String, nullable: true, description: 'Id of the category, also when not expanded.' })
  category_id: string | null;

  @ApiProperty({ type: CategoryDto, nullable: true, description: 'Null unless `expand=category` (and null when the document has none).' })
  category: CategoryDto | null;

  @ApiProperty({ format: 'uuid', type: String, nullable: true })
  subcategory_id: string | null;

  @ApiProperty({ type: CategoryDto, nullable: true, description: 'Null unless `expand=subcategory`.' })
  subcategory: CategoryDto | null;

  @ApiProperty({ format: 'uuid', type: String, nullable: true })
  counterpart_id: string | null;

  @ApiProperty({ type: CounterpartDto, nullable: true, description: 'Null unless `expand=counterpart`.' })
  counterpart: CounterpartDto | null;

  @ApiProperty({
    format: 'uuid',
    type: String,
    nullable: true,
    description:
      "The sectional (numbering series) the document's number was taken from, also when not expanded; null for a document that carries a number of its own.",
  })
  sectional_id: string | null;

  @ApiProperty({
    type: SectionalDto,
    nullable: true,
    description: 'Null unless `expand=sectional` (and null when the document was not numbered from a sectional).',
  })
  sectional: SectionalDto | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    description:
      "The document's progressive in its sectional (`number` is it written in the sectional's format); null when the document was not numbered from a sectional.",
    example: 42,
  })
  progressive: number | null;

  @ApiProperty({ format: 'date-time', description: 'When the document was recorded in Flusso.' })
  created_at: string;

  @ApiProperty({ format: 'date', description: "The document's own date.", example: '2026-03-01' })
  creation_date: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the SDI delivered the e-invoice.' })
  delivery_date: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    pattern: DELIVERY_STATUS_PATTERN,
    description:
      "Last SDI notification: RC delivered, MC not delivered, NS discarded, NE outcome from a public administration, DT terms elapsed, AT transmitted but not deliverable. A discard is followed by the SDI's error codes (`NS 00311,00404`), a public administration's outcome by its code (`NE EC02`: refused).",
    example: 'RC',
  })
  delivery_status: DeliveryStatus | null;

  @ApiProperty({ enum: DIRECTIONS, description: 'ISSUED or RECEIVED; self-issued invoices count as RECEIVED.', example: 'ISSUED' })
  direction: Direction;

  @ApiProperty({ type: String, nullable: true, example: 'IT01234567890_00042.xml' })
  file_name: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Free notes on the document.' })
  notes: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The integrator's own identifier of the document." })
  source_id: string | null;

  @ApiProperty({
    format: 'date-time',
    description: 'When the last change to the document or its flows took effect. Never goes back: each change moves it forward.',
  })
  updated_at: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description:
      'Starts at 1 and goes up by one with every change to the document or its flows. A `document.updated` event carries the version it announces: drop an event whose version is not greater than the one you hold.',
    example: 7,
  })
  version: number;
}

/** Longest `notes` of a document. */
export const DOCUMENT_NOTES_MAX_LENGTH = 1000;

/** Document update payload: every member is optional; those present are changed, null clears. */
@ApiSchema({ name: 'DocumentUpdatePayload' })
export class UpdateDocumentDto implements ClassificationChanges {
  @CategoryIdChange()
  category_id?: string | null;

  @SubcategoryIdChange('document')
  subcategory_id?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: DOCUMENT_NOTES_MAX_LENGTH,
    description: `Free notes on the document: 1 to ${DOCUMENT_NOTES_MAX_LENGTH} characters, not blank, no NUL characters; null clears them.`,
    example: 'Consegna al magazzino di Bologna',
  })
  @OptionalNullable()
  @FreeText('notes', DOCUMENT_NOTES_MAX_LENGTH)
  notes?: string | null;
}
