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

/**
 * Compares two non-negative decimal strings exactly (no floats): negative, zero or positive as `a` is less than,
 * equal to or greater than `b`. "1200.5" and "1200.50" are equal.
 */
export function compareAmounts(a: string, b: string): number {
  const parts = (value: string) => {
    const [whole, fraction = ''] = value.split('.');
    return [whole.replace(/^0+(?=\d)/, ''), fraction.replace(/0+$/, '')];
  };
  const [wholeA, fractionA] = parts(a);
  const [wholeB, fractionB] = parts(b);
  if (wholeA.length !== wholeB.length) return wholeA.length - wholeB.length;
  const width = Math.max(fractionA.length, fractionB.length);
  const digitsA = wholeA + fractionA.padEnd(width, '0');
  const digitsB = wholeB + fractionB.padEnd(width, '0');
  return digitsA < digitsB ? -1 : digitsA > digitsB ? 1 : 0;
}

/** Whether two amounts are the same number. */
export const sameAmount = (a: string, b: string): boolean => compareAmounts(a, b) === 0;

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
