import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsEmailAddress } from '../common/validation/email.js';
import { IsDefined, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '../common/validation/optional.js';

/** The most recipients one share may name: a courtesy copy goes to a customer's few addresses, not to a list. */
export const MAX_RECIPIENTS = 20;

/**
 * Share-invoice payload (spec section 5): `to` is one address or a non-empty array of them, `reply_to` one address;
 * `subject` and `body` default to Italian texts naming the document type and number.
 */
@ApiSchema({ name: 'InvoiceShareCreatePayload' })
export class ShareInvoiceDto {
  @ApiProperty({
    oneOf: [
      { type: 'string', format: 'email', maxLength: 254 },
      { type: 'array', items: { type: 'string', format: 'email', maxLength: 254 }, minItems: 1, maxItems: MAX_RECIPIENTS },
    ],
    description: `Who receives the copy: one e-mail address, or a list of 1 to ${MAX_RECIPIENTS}.`,
    example: ['amministrazione@bianchi-impianti.it'],
  })
  @IsDefined({ message: 'to is required' })
  @ValidateIf((_object, value) => !Array.isArray(value))
  @IsString({ message: 'to must be an e-mail address or a list of them' })
  @MaxLength(254, { message: 'to must be at most 254 characters long' })
  @IsEmailAddress({ message: 'to must be an e-mail address or a list of them' })
  to: string | string[];

  @ApiProperty({
    format: 'email',
    maxLength: 254,
    description: 'Where replies go: your customer answers you, not Flusso.',
    example: 'fatture@rossi-srl.it',
  })
  @IsDefined({ message: 'reply_to is required' })
  @IsString({ message: 'reply_to must be an e-mail address' })
  @MaxLength(254, { message: 'reply_to must be at most 254 characters long' })
  @IsEmailAddress({ message: 'reply_to must be an e-mail address' })
  reply_to: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description:
      'The subject, one line, not blank. Default (when omitted): the document type, number and date, and the seller, in Italian ("Fattura n. 2026/15 del 12/03/2026 - Rossi S.r.l.").',
    example: 'Fattura n. 2026/15 del 12/03/2026 - Rossi S.r.l.',
  })
  @OptionalNotNull()
  @IsString({ message: 'subject must be a string' })
  @MaxLength(200, { message: 'subject must be at most 200 characters long' })
  @Matches(/^[^\r\n]*$/, { message: 'subject must be one line' })
  // A blank subject would send an e-mail without one.
  @Matches(/\S/, { message: 'subject must not be blank; omit it for the default subject' })
  subject?: string;

  @ApiPropertyOptional({
    maxLength: 10000,
    description:
      'Your message, as plain text, shown above the invoice. Default: an Italian courtesy-copy message naming the document type and number. The invoice (parties, lines, VAT summary, total, due dates) always follows, and the XML is attached.',
    example: 'Gentile cliente,\n\nin allegato la fattura di marzo.\n\nCordiali saluti,\nRossi S.r.l.',
  })
  @OptionalNotNull()
  @IsString({ message: 'body must be a string' })
  @MaxLength(10000, { message: 'body must be at most 10000 characters long' })
  body?: string;
}

export const SHARE_STATUSES = ['QUEUED', 'SENT', 'FAILED'] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

@ApiSchema({ name: 'InvoiceShare' })
export class InvoiceShareDto {
  @ApiProperty({ format: 'uuid', example: '4b0f7c52-9d3e-4c1a-8f25-6d2e1a7b9c30' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '0c6f3e2a-5b7d-4f1e-9a8c-2d4b6e8f0a13' })
  document_id: string;

  @ApiProperty({ type: [String], example: ['amministrazione@bianchi-impianti.it'] })
  to: string[];

  @ApiProperty({ format: 'email', example: 'fatture@rossi-srl.it' })
  reply_to: string;

  @ApiProperty({ example: 'Fattura n. 2026/15 del 12/03/2026 - Rossi S.r.l.' })
  subject: string;

  @ApiProperty({
    enum: SHARE_STATUSES,
    description:
      '`QUEUED` (accepted, not yet taken by the mail server, or being retried after a temporary refusal), `SENT` (the mail server accepted it: Flusso cannot know whether it reached the inbox), `FAILED` (refused for good, or every retry failed; see `failure_reason`).',
    example: 'QUEUED',
  })
  status: ShareStatus;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Attempts made to hand the message to the mail server.', example: 0 })
  attempts: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "Why the last attempt failed (the mail server's answer or the connection error), while retrying or after failing; null otherwise.",
    example: null,
  })
  failure_reason: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-03-12T10:15:00.000Z' })
  created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the message was sent or failed for good.', example: null })
  completed_at: string | null;
}
