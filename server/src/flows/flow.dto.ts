import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsString, ValidateNested } from 'class-validator';
import { MoneyDto } from '../common/money/money.js';
import { IsCalendarDate } from '../common/validation/calendar-date.js';
import { OptionalNotNull, OptionalNullable } from '../common/validation/optional.js';
import { PAYMENT_METHODS, PAYMENT_STATUSES, type PaymentMethod, type PaymentStatus } from './flow.enums.js';

@ApiSchema({ name: 'Flow' })
export class FlowDto {
  @ApiProperty({ format: 'uuid', example: 'c2a9e1d4-5b6f-4c7d-8e9f-0a1b2c3d4e5f' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c' })
  document_id: string;

  @ApiProperty({ type: MoneyDto })
  amount: MoneyDto;

  @ApiProperty({
    type: MoneyDto,
    description:
      "What the flow's reconciliations allocate to it: the sum of their amounts, never more than `amount`. When it reaches `amount` the flow is PAID; below it, the flow is partly paid.",
    example: { amount: '450.75', currency: 'EUR' },
  })
  paid_amount: MoneyDto;

  @ApiProperty({
    enum: PAYMENT_STATUSES,
    description: 'PAID once `paid_amount` reaches `amount` (or when set by hand on a flow its reconciliations never covered); TO_PAY otherwise.',
    example: 'TO_PAY',
  })
  payment_status: PaymentStatus;

  @ApiProperty({ enum: PAYMENT_METHODS, nullable: true, example: 'TRANSFER' })
  payment_method: PaymentMethod | null;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2026-03-31' })
  expected_payment_date: string | null;

  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'Set when the flow is PAID.', example: null })
  payment_date: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

/** Flow creation payload: the amount, and optionally when and how it is expected to be paid. A new flow is TO_PAY. */
@ApiSchema({ name: 'FlowCreatePayload' })
export class CreateFlowDto {
  @ApiProperty({
    type: MoneyDto,
    description: "More than zero, in the document's currency. With the document's other flows it may total at most the document's gross amount.",
  })
  @IsDefined({ message: 'amount is required' })
  @IsObject()
  @ValidateNested()
  @Type(() => MoneyDto)
  amount: MoneyDto;

  @ApiPropertyOptional({ type: String, format: 'date', nullable: true, example: '2026-04-30' })
  @OptionalNullable()
  @IsString()
  @IsCalendarDate()
  expected_payment_date?: string | null;

  @ApiPropertyOptional({ enum: PAYMENT_METHODS, nullable: true, example: 'TRANSFER' })
  @OptionalNullable()
  @IsString()
  @IsIn(PAYMENT_METHODS, { message: `payment_method must be one of ${PAYMENT_METHODS.join(', ')}` })
  payment_method?: PaymentMethod | null;
}

/** Flow update payload: every member is optional; those present are changed. */
@ApiSchema({ name: 'FlowUpdatePayload' })
export class UpdateFlowDto {
  @ApiPropertyOptional({
    type: MoneyDto,
    description:
      "New amount; its currency must be the document's, it can't be less than `paid_amount`, and a larger amount may not bring the document's flows above its gross amount.",
  })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => MoneyDto)
  amount?: MoneyDto;

  @ApiPropertyOptional({ type: String, format: 'date', nullable: true, example: '2026-04-30' })
  @OptionalNullable()
  @IsString()
  @IsCalendarDate()
  expected_payment_date?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    nullable: true,
    description: "When the flow was paid. Only a PAID flow has one; setting PAID without it uses today's date (Europe/Rome).",
    example: '2026-04-28',
  })
  @OptionalNullable()
  @IsString()
  @IsCalendarDate()
  payment_date?: string | null;

  @ApiPropertyOptional({ enum: PAYMENT_METHODS, nullable: true, example: 'TRANSFER' })
  @OptionalNullable()
  @IsString()
  @IsIn(PAYMENT_METHODS, { message: `payment_method must be one of ${PAYMENT_METHODS.join(', ')}` })
  payment_method?: PaymentMethod | null;

  @ApiPropertyOptional({ enum: PAYMENT_STATUSES, example: 'PAID' })
  @OptionalNotNull()
  @IsString()
  @IsIn(PAYMENT_STATUSES, { message: `payment_status must be one of ${PAYMENT_STATUSES.join(', ')}` })
  payment_status?: PaymentStatus;
}
