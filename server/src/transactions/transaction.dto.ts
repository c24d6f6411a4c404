import { ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { CategoryDto } from '../categories/category.dto.js';
import { CategoryIdChange, type ClassificationChanges, SubcategoryIdChange } from '../categories/classification.js';
import { MoneyDto } from '../common/money/money.js';
// A type-only import: Reconciliation names Transaction too, and the schema is referenced by name, not by class.
import type { ReconciliationDto } from './reconciliation.dto.js';
import { TRANSACTION_TYPES, type TransactionType } from './transaction.entity.js';

@ApiSchema({ name: 'Transaction' })
export class TransactionDto {
  @ApiProperty({ format: 'uuid', example: 'a7b6c5d4-e3f2-4a1b-9c8d-7e6f5a4b3c2d' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  account_id: string;

  @ApiProperty({ enum: TRANSACTION_TYPES, description: 'CREDIT money in, DEBIT money out (amounts carry no sign).', example: 'CREDIT' })
  type: TransactionType;

  @ApiProperty({ type: MoneyDto })
  amount: MoneyDto;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the bank booked the movement.' })
  booking_date_time: string | null;

  @ApiProperty({ format: 'date', description: 'Accounting date.', example: '2026-03-14' })
  date: string;

  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'Value date (data valuta).' })
  value_date: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'BONIFICO SEPA DA BIANCHI IMPIANTI SRL RIF. FV-2026/0042' })
  description: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The description without bank codes and noise.', example: 'Bonifico da Bianchi Impianti' })
  clean_description: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Bianchi Impianti S.r.l.' })
  counterpart_name: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'uuid', type: String, nullable: true })
  category_id: string | null;

  @ApiProperty({ type: CategoryDto, nullable: true, description: 'Null unless `expand=category`.' })
  category: CategoryDto | null;

  @ApiProperty({ format: 'uuid', type: String, nullable: true })
  subcategory_id: string | null;

  @ApiProperty({ type: CategoryDto, nullable: true, description: 'Null unless `expand=subcategory`.' })
  subcategory: CategoryDto | null;

  @ApiProperty({
    type: 'array',
    items: { $ref: getSchemaPath('Reconciliation') },
    nullable: true,
    description: 'Reconciliations of the transaction; null unless `expand=reconciliations` (`reconciliations.flow` also expands their flows).',
  })
  reconciliations: ReconciliationDto[] | null;
}

/** Transaction update payload: its classification. Members left out stay as they are; null clears. */
@ApiSchema({ name: 'TransactionUpdatePayload' })
export class UpdateTransactionDto implements ClassificationChanges {
  @CategoryIdChange()
  category_id?: string | null;

  @SubcategoryIdChange('transaction')
  subcategory_id?: string | null;
}
