import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MoneyDto } from '../common/money/money.js';

@ApiSchema({ name: 'Account' })
export class AccountDto {
  @ApiProperty({ format: 'uuid', example: '6a1d0f1e-3b7c-4e45-a1b3-7f9d2c4e5a61' })
  id: string;

  @ApiProperty({ nullable: true, type: String, example: 'Conto corrente Intesa' })
  nickname: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'ISO 4217 currency of the account.', example: 'EUR' })
  currency: string | null;

  @ApiProperty({ type: MoneyDto, nullable: true, description: 'Booked balance.' })
  current_balance: MoneyDto | null;

  @ApiProperty({ type: MoneyDto, nullable: true, description: 'Balance available to spend, credit line included.' })
  available_balance: MoneyDto | null;

  @ApiProperty({ type: MoneyDto, nullable: true, description: 'Overdraft or credit line granted on the account.' })
  credit_limit: MoneyDto | null;

  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When the balances were read from the bank.' })
  balance_date: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}
