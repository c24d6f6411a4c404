import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsISO4217CurrencyCode, IsString, Matches } from 'class-validator';

/**
 * Money is an exact decimal string and an ISO 4217 currency, never a float. Amounts are non-negative; the direction
 * of a movement is carried elsewhere (document direction, transaction type).
 */
export const MONEY_AMOUNT_PATTERN = /^\d{1,15}(\.\d{1,6})?$/;

export interface Money {
  amount: string;
  currency: string;
}

/** The money object of a stored amount, or null when either half is missing. */
export function money(amount: string | null | undefined, currency: string | null | undefined): Money | null {
  if (amount === null || amount === undefined || !currency) return null;
  return { amount, currency: currency.trim() };
}

@ApiSchema({ name: 'Money' })
export class MoneyDto implements Money {
  @ApiProperty({
    description: 'Non-negative decimal number as a string: digits with an optional decimal part (up to 15 integer and 6 decimal digits).',
    pattern: MONEY_AMOUNT_PATTERN.source,
    example: '1220.00',
  })
  @IsDefined()
  @IsString()
  @Matches(MONEY_AMOUNT_PATTERN, {
    message: 'amount must be a non-negative decimal string such as "1220.00" (up to 15 integer and 6 decimal digits)',
  })
  amount: string;

  @ApiProperty({ description: 'ISO 4217 currency code, in capitals.', example: 'EUR', pattern: '^[A-Z]{3}$' })
  @IsDefined()
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 currency code in capitals, such as EUR' })
  @IsISO4217CurrencyCode({ message: 'currency must be an ISO 4217 currency code such as EUR' })
  currency: string;
}
