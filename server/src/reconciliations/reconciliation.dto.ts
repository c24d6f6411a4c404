import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsUUID } from 'class-validator';
import { FlowDto } from '../flows/flow.dto.js';
import { TransactionDto } from '../transactions/transaction.dto.js';

@ApiSchema({ name: 'Reconciliation' })
export class ReconciliationDto {
  @ApiProperty({ format: 'uuid', example: 'e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c5b' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  flow_id: string;

  @ApiProperty({ format: 'uuid' })
  transaction_id: string;

  @ApiProperty({ type: () => FlowDto, nullable: true, description: 'Null unless `expand=flow`.' })
  flow: FlowDto | null;

  @ApiProperty({ type: () => TransactionDto, nullable: true, description: 'Null unless `expand=transaction`.' })
  transaction: TransactionDto | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

/** Reconciliation creation payload. */
@ApiSchema({ name: 'ReconciliationCreationPayload' })
export class CreateReconciliationDto {
  @ApiProperty({ format: 'uuid', description: 'The flow that the transaction pays.' })
  @IsDefined({ message: 'flow_id is required' })
  @IsUUID('all', { message: 'flow_id must be a uuid' })
  flow_id: string;

  @ApiProperty({ format: 'uuid', description: 'The bank transaction that pays the flow.' })
  @IsDefined({ message: 'transaction_id is required' })
  @IsUUID('all', { message: 'transaction_id must be a uuid' })
  transaction_id: string;
}
