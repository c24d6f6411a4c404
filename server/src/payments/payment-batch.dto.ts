import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsObject, IsString, IsUUID, ValidateNested } from 'class-validator';
import { MoneyDto } from '../common/money/money.js';
import { IsCalendarDate } from '../common/validation/calendar-date.js';
import { OptionalNotNull, OptionalNullable } from '../common/validation/optional.js';
import { PAYMENT_BATCH_STATUSES, type PaymentBatchStatus } from './payment-batch.entity.js';
import { SEPA_LIMITS } from './sepa/pain001.js';

/** Most payments one request may carry, and most flows one payment may name. */
export const MAX_PAYMENTS = 1000;
export const MAX_FLOWS_PER_PAYMENT = 100;

@ApiSchema({ name: 'PaymentBatchDebtor' })
export class PaymentBatchDebtorDto {
  @ApiProperty({
    description: "The company's name as the file carries it: in the SEPA character set, at most 70 characters.",
    example: 'Trattoria Da Mario S.r.l.',
  })
  name: string;

  @ApiProperty({ description: "The paying account's IBAN.", example: 'IT60X0542811101000000123456' })
  iban: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'BIC of the paying bank, as given in the request; null when not given (the file then says NOTPROVIDED).',
    example: null,
  })
  bic: string | null;
}

@ApiSchema({ name: 'PaymentBatchPayment' })
export class PaymentBatchPaymentDto {
  @ApiProperty({ format: 'uuid', example: '0c9b8a7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d' })
  id: string;

  @ApiProperty({
    description: 'The EndToEndId the payee receives with the money: the one given, else the payment id without dashes.',
    example: 'FATT-2026-118',
  })
  end_to_end_id: string;

  @ApiProperty({ description: 'The payee as the file names it (SEPA character set, at most 70 characters).', example: 'Caseificio Bianchi S.r.l.' })
  payee_name: string;

  @ApiProperty({ description: "The payee's IBAN, without spaces.", example: 'IT60X0542811101000000123456' })
  iban: string;

  @ApiProperty({ type: MoneyDto, example: { amount: '1220.00', currency: 'EUR' } })
  amount: MoneyDto;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Unstructured remittance information (SEPA character set, at most 140 characters).',
    example: 'Saldo fattura 118/2026',
  })
  remittance_information: string | null;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: 'The flows this payment pays, as given (possibly empty).',
    example: ['c2a9e1d4-5b6f-4c7d-8e9f-0a1b2c3d4e5f'],
  })
  flow_ids: string[];
}

@ApiSchema({ name: 'PaymentBatch' })
export class PaymentBatchDto {
  @ApiProperty({ format: 'uuid', example: '3f2e1d0c-9b8a-4765-8432-10fedcba9876' })
  id: string;

  @ApiProperty({
    enum: PAYMENT_BATCH_STATUSES,
    description:
      'DRAFT: the file is ready to be uploaded to the bank. Flusso does not send it; the flows it pays become PAID when the bank debit is reconciled.',
    example: 'DRAFT',
  })
  status: PaymentBatchStatus;

  @ApiProperty({ format: 'uuid', description: 'The account the payments are made from.' })
  account_id: string;

  @ApiProperty({ description: "The file's MsgId; its payment information block is `<message_id>-1`.", example: '3F2E1D0C9B8A4765843210FEDCBA9876' })
  message_id: string;

  @ApiProperty({ type: String, format: 'date', description: 'The day the bank is asked to execute the transfers (ReqdExctnDt).', example: '2026-04-30' })
  requested_execution_date: string;

  @ApiProperty({ type: PaymentBatchDebtorDto })
  debtor: PaymentBatchDebtorDto;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Number of payments (NbOfTxs).', example: 2 })
  payment_count: number;

  @ApiProperty({ type: MoneyDto, description: "The sum of the payments' amounts (CtrlSum).", example: { amount: '1806.40', currency: 'EUR' } })
  control_sum: MoneyDto;

  @ApiProperty({
    description:
      'Path of the SEPA credit-transfer file (pain.001.001.09) on this API: GET it with the same API key (getPaymentBatchFile). It is relative to the host.',
    example: '/api/v1/companies/9d4b2c1a-7e6f-4a3b-8c2d-1e0f9a8b7c6d/payment-batches/3f2e1d0c-9b8a-4765-8432-10fedcba9876/file',
  })
  file_url: string;

  @ApiProperty({
    type: () => [PaymentBatchPaymentDto],
    nullable: true,
    description: 'In request order. Null unless `expand=payments` (the creation answer always has them).',
  })
  payments: PaymentBatchPaymentDto[] | null;

  @ApiProperty({ format: 'date-time', description: "When the batch was created: the file's CreDtTm (to the second)." })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

/** One payment of a bulk payment request. */
@ApiSchema({ name: 'BulkPaymentRow' })
export class BulkPaymentRowDto {
  @ApiProperty({
    description: `Who is paid. Transliterated to the SEPA character set (accents dropped, \`&\` → \`+\`, other scripts romanised…); at most ${SEPA_LIMITS.nameLength} characters after that.`,
    example: 'Caseificio Bianchi S.r.l.',
  })
  @IsDefined({ message: 'payee_name is required' })
  @IsString({ message: 'payee_name must be a string' })
  payee_name: string;

  @ApiProperty({
    description: "The payee's IBAN, with or without spaces, in either case: ISO 13616 check digits and the country's length, in a country of the SEPA schemes.",
    example: 'IT60 X054 2811 1010 0000 0123 456',
  })
  @IsDefined({ message: 'iban is required' })
  @IsString({ message: 'iban must be a string' })
  iban: string;

  @ApiProperty({
    type: MoneyDto,
    description: 'In EUR, more than zero, at most 999999999.99, at most two decimals.',
    example: { amount: '1220.00', currency: 'EUR' },
  })
  @IsDefined({ message: 'amount is required' })
  @IsObject({ message: 'amount must be a money object' })
  @ValidateNested()
  @Type(() => MoneyDto)
  amount: MoneyDto;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: `Unstructured remittance information for the payee (invoice numbers…): transliterated like payee_name, at most ${SEPA_LIMITS.remittanceLength} characters.`,
    example: 'Saldo fattura 118/2026',
  })
  @OptionalNullable()
  @IsString({ message: 'remittance_information must be a string' })
  remittance_information?: string | null;

  @ApiPropertyOptional({
    description:
      "Your reference for this payment, returned by the payee's bank and on your statement: 1 to 35 characters of the SEPA set, with a letter or digit, not starting or ending with `/` or a space nor containing `//`, unique within the request. Without it Flusso makes one.",
    example: 'FATT-2026-118',
  })
  @OptionalNotNull()
  @IsString({ message: 'end_to_end_id must be a string' })
  end_to_end_id?: string;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    description: `Flows of the company that this payment pays (at most ${MAX_FLOWS_PER_PAYMENT}): money-out flows (received documents, or issued credit notes) TO_PAY in EUR. The amount may not exceed what remains to be paid of them together.`,
  })
  @OptionalNotNull()
  @IsArray({ message: 'flow_ids must be an array of flow ids' })
  @ArrayMaxSize(MAX_FLOWS_PER_PAYMENT, { message: `flow_ids may name at most ${MAX_FLOWS_PER_PAYMENT} flows` })
  flow_ids?: unknown[];
}

/** Bulk payment request payload. */
@ApiSchema({ name: 'BulkPaymentCreatePayload' })
export class CreateBulkPaymentDto {
  @ApiProperty({ format: 'uuid', description: 'The account of the company to pay from: it must have an IBAN, and be in EUR (or have no currency set).' })
  @IsDefined({ message: 'account_id is required' })
  @IsUUID('all', { message: 'account_id must be a uuid' })
  account_id: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description: 'The day the bank should execute the transfers: today or later (Europe/Rome), within a year. Default: today.',
    example: '2026-04-30',
  })
  @OptionalNotNull()
  @IsString({ message: 'requested_execution_date must be a string' })
  @IsCalendarDate()
  requested_execution_date?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "BIC of the paying account's bank (8 or 11 characters). Without it the file says NOTPROVIDED, which SEPA banks accept.",
    example: 'BPMOIT22XXX',
  })
  @OptionalNullable()
  @IsString({ message: 'debtor_bic must be a string' })
  debtor_bic?: string | null;

  @ApiProperty({ type: [BulkPaymentRowDto], description: `The payments, 1 to ${MAX_PAYMENTS}, each a SEPA credit transfer in the file, in this order.` })
  @IsDefined({ message: 'payments is required' })
  @IsArray({ message: 'payments must be an array' })
  @ArrayMinSize(1, { message: 'payments must hold at least one payment' })
  @ArrayMaxSize(MAX_PAYMENTS, { message: `payments may hold at most ${MAX_PAYMENTS} payments` })
  @ValidateNested({ each: true })
  @Type(() => BulkPaymentRowDto)
  payments: BulkPaymentRowDto[];
}
