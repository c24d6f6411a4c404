import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsUUID, ValidateNested } from 'class-validator';
import { MoneyDto } from '../common/money/money.js';
import { OptionalNotNull } from '../common/validation/optional.js';
import { FlowDto } from '../flows/flow.dto.js';
import { TransactionDto } from './transaction.dto.js';

@ApiSchema({ name: 'Reconciliation' })
export class ReconciliationDto {
  @ApiProperty({ format: 'uuid', example: 'e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  flow_id: string;

  @ApiProperty({ format: 'uuid' })
  transaction_id: string;

  @ApiProperty({
    type: MoneyDto,
    description:
      "The part of the transaction's amount that pays the flow. A transaction's reconciliations never add up to more than its amount, nor a flow's to more than the flow's amount.",
    example: { amount: '450.75', currency: 'EUR' },
  })
  amount: MoneyDto;

  @ApiProperty({ type: () => FlowDto, nullable: true, description: 'Null unless `expand=flow`.' })
  flow: FlowDto | null;

  @ApiProperty({ type: () => TransactionDto, nullable: true, description: 'Null unless `expand=transaction`.' })
  transaction: TransactionDto | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

/** Reconciliation creation payload. */
@ApiSchema({ name: 'ReconciliationCreatePayload' })
export class CreateReconciliationDto {
  @ApiProperty({ format: 'uuid', description: 'The flow that the transaction pays.' })
  @IsDefined({ message: 'flow_id is required' })
  @IsUUID('all', { message: 'flow_id must be a uuid' })
  flow_id: string;

  @ApiProperty({ format: 'uuid', description: 'The bank transaction that pays the flow.' })
  @IsDefined({ message: 'transaction_id is required' })
  @IsUUID('all', { message: 'transaction_id must be a uuid' })
  transaction_id: string;

  @ApiPropertyOptional({
    type: MoneyDto,
    description:
      "How much of the transaction pays the flow, in the transaction's currency: more than zero, and at most what remains of the transaction and of the flow. Without it, the lesser of the two. (An extension of the reconciliation creation payload.)",
    example: { amount: '250.00', currency: 'EUR' },
  })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => MoneyDto)
  amount?: MoneyDto;
}
