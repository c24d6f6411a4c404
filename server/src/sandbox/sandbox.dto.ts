import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsString, IsUUID, Matches, ValidateNested } from 'class-validator';
import { IsCalendarDate } from '../common/validation/calendar-date.js';
import { FreeText } from '../common/validation/free-text.js';
import { OptionalNullable } from '../common/validation/optional.js';
import { TransactionDto } from '../transactions/transaction.dto.js';

/** Transactions one sandbox call creates at most: a statement's worth, answered in one page. */
export const MAX_SANDBOX_TRANSACTIONS = 100;

/** A signed amount, as in a CSV statement: up to 15 digits and 6 decimals, not zero (its sign is the direction). */
export const SIGNED_AMOUNT = /^-?(?=[\d.]*[1-9])\d{1,15}(\.\d{1,6})?$/;

/** One bank movement to create in the development environment. */
@ApiSchema({ name: 'SandboxTransaction' })
export class SandboxTransactionDto {
  @ApiProperty({
    description:
      "The amount with its sign, in the account's currency (EUR when the account has none): positive money in (CREDIT), negative money out (DEBIT). A dot for decimals, up to 6; not zero.",
    example: '1220.00',
    pattern: SIGNED_AMOUNT.source,
  })
  @IsDefined({ message: 'amount is required' })
  @IsString({ message: 'amount must be a string such as "1220.00" or "-180.35"' })
  @Matches(SIGNED_AMOUNT, { message: 'amount must be a signed decimal that is not zero, such as "1220.00" or "-180.35", with a dot and at most 6 decimals' })
  amount: string;

  @ApiProperty({ format: 'date', description: 'Accounting date; also the value date.', example: '2026-03-30' })
  @IsDefined({ message: 'date is required' })
  @IsString({ message: 'date must be a string' })
  @IsCalendarDate()
  date: string;

  @ApiProperty({
    description:
      "The bank's description, 1 to 1000 characters. When it contains an invoice's `reconciliation_identifier` (ignoring case), the transaction is reconciled with that invoice as an imported one is.",
    example: 'BONIFICO SEPA DA BIANCHI IMPIANTI SRL RIF. RF18 0000 0000 0042',
  })
  @IsDefined({ message: 'description is required' })
  @FreeText('description', 1000)
  description: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Who paid or was paid, 1 to 1000 characters.', example: 'Bianchi Impianti S.r.l.' })
  @OptionalNullable()
  @FreeText('counterpart_name', 1000)
  counterpart_name?: string | null;
}

/** Sandbox transactions creation payload. */
@ApiSchema({ name: 'SandboxTransactionsCreatePayload' })
export class CreateSandboxTransactionsDto {
  @ApiProperty({ format: 'uuid', description: 'The account of the company the movements are on.' })
  @IsDefined({ message: 'account_id is required' })
  @IsUUID('all', { message: 'account_id must be a uuid' })
  account_id: string;

  @ApiProperty({
    type: [SandboxTransactionDto],
    description: `The movements, 1 to ${MAX_SANDBOX_TRANSACTIONS}: all are created or none.`,
  })
  @IsDefined({ message: 'transactions is required' })
  @IsArray({ message: 'transactions must be an array' })
  @ArrayMinSize(1, { message: 'transactions must hold at least one transaction' })
  @ArrayMaxSize(MAX_SANDBOX_TRANSACTIONS, { message: `transactions may hold at most ${MAX_SANDBOX_TRANSACTIONS} transactions` })
  @ValidateNested({ each: true })
  @Type(() => SandboxTransactionDto)
  transactions: SandboxTransactionDto[];
}

/** The answer of sandbox transactions creation: the transactions created, in the order sent. */
@ApiSchema({ name: 'CreatedTransactions' })
export class CreatedTransactionsDto {
  @ApiProperty({
    type: () => [TransactionDto],
    description: 'The transactions created, in the order sent, with `reconciliations` (and their flows) expanded: the automatic reconciliation has run.',
  })
  data: TransactionDto[];
}
