import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { OptionalNotNull } from '../common/validation/optional.js';

/**
 * A rendered number must fit FatturaPA's `Numero` (at most 20 basic-Latin characters): prefix and suffix together at
 * most 12 characters, and at most 8 digits, so every progressive up to 99,999,999 fits.
 */
export const AFFIX_MAX_LENGTH = 12;
export const MAX_DIGITS = 8;
export const MAX_PROGRESSIVE = 99_999_999;
export const MIN_YEAR = 2000;
export const MAX_YEAR = 2999;

@ApiSchema({ name: 'Sectional' })
export class SectionalDto {
  @ApiProperty({ format: 'uuid', example: '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c' })
  id: string;

  @ApiProperty({ type: 'integer', description: 'The year the series numbers; numbering restarts each year with a sectional of its own.', example: 2026 })
  year: number;

  @ApiProperty({ description: 'Written before the progressive; may be empty.', example: 'FV/' })
  prefix: string;

  @ApiProperty({
    description: 'Written after the progressive; may be empty. The year appears in a number only if prefix or suffix carries it.',
    example: '/2026',
  })
  suffix: string;

  @ApiProperty({ type: 'integer', description: 'The progressive is zero-padded to at least this many digits.', minimum: 1, maximum: MAX_DIGITS, example: 4 })
  minimum_digits: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      "The last progressive handed out; 0 while the series has issued nothing. It goes down by one when the draft holding the series' last number is deleted.",
    example: 41,
  })
  last_progressive: number;

  @ApiProperty({ description: 'The number the next document created with this sectional will get.', example: 'FV/0042/2026' })
  next_number: string;

  @ApiProperty({ format: 'date-time', example: '2026-01-02T08:30:00.000Z' })
  created_at: string;

  @ApiProperty({ format: 'date-time', example: '2026-03-14T10:12:45.118Z' })
  updated_at: string;
}

const AFFIX_PATTERN = /^[\x20-\x7E]*$/;
const affixDoc = (where: string, example: string) => ({
  description: `Written ${where} the progressive: printable basic-Latin (ASCII) characters, prefix and suffix together at most ${AFFIX_MAX_LENGTH}. Defaults to empty.`,
  maxLength: AFFIX_MAX_LENGTH,
  pattern: '^[\\x20-\\x7E]*$',
  example,
});

/** The value rules of each member, shared by creation (year and minimum_digits required) and update (all optional). */
function Year(): PropertyDecorator {
  return (target, property) => {
    IsInt({ message: 'year must be an integer' })(target, property);
    Min(MIN_YEAR, { message: `year must be between ${MIN_YEAR} and ${MAX_YEAR}` })(target, property);
    Max(MAX_YEAR, { message: `year must be between ${MIN_YEAR} and ${MAX_YEAR}` })(target, property);
  };
}

function MinimumDigits(): PropertyDecorator {
  return (target, property) => {
    IsInt({ message: 'minimum_digits must be an integer' })(target, property);
    Min(1, { message: `minimum_digits must be between 1 and ${MAX_DIGITS}` })(target, property);
    Max(MAX_DIGITS, { message: `minimum_digits must be between 1 and ${MAX_DIGITS}` })(target, property);
  };
}

function Affix(name: string): PropertyDecorator {
  return (target, property) => {
    OptionalNotNull()(target, property);
    IsString({ message: `${name} must be a string` })(target, property);
    Matches(AFFIX_PATTERN, { message: `${name} may hold only printable basic-Latin (ASCII) characters` })(target, property);
    MaxLength(AFFIX_MAX_LENGTH, { message: `${name} must be at most ${AFFIX_MAX_LENGTH} characters long` })(target, property);
  };
}

const YEAR_DOC = {
  type: 'integer' as const,
  description: `The year the series numbers (${MIN_YEAR}–${MAX_YEAR}).`,
  minimum: MIN_YEAR,
  maximum: MAX_YEAR,
  example: 2026,
};
const DIGITS_DOC = {
  type: 'integer' as const,
  description: `The progressive is zero-padded to at least this many digits (1–${MAX_DIGITS}).`,
  minimum: 1,
  maximum: MAX_DIGITS,
  example: 4,
};

/** Sectional creation payload. */
@ApiSchema({ name: 'SectionalCreatePayload' })
export class CreateSectionalDto {
  @ApiProperty(YEAR_DOC)
  @IsDefined({ message: 'year is required' })
  @Year()
  year: number;

  @ApiPropertyOptional(affixDoc('before', 'FV/'))
  @Affix('prefix')
  prefix?: string;

  @ApiPropertyOptional(affixDoc('after', '/2026'))
  @Affix('suffix')
  suffix?: string;

  @ApiProperty(DIGITS_DOC)
  @IsDefined({ message: 'minimum_digits is required' })
  @MinimumDigits()
  minimum_digits: number;
}

/** Sectional update payload: any of the members. Year, prefix and suffix are fixed once a number was taken. */
@ApiSchema({ name: 'SectionalUpdatePayload' })
export class UpdateSectionalDto {
  @ApiPropertyOptional(YEAR_DOC)
  @OptionalNotNull()
  @Year()
  year?: number;

  @ApiPropertyOptional(affixDoc('before', 'FV/'))
  @Affix('prefix')
  prefix?: string;

  @ApiPropertyOptional(affixDoc('after', '/2026'))
  @Affix('suffix')
  suffix?: string;

  @ApiPropertyOptional(DIGITS_DOC)
  @OptionalNotNull()
  @MinimumDigits()
  minimum_digits?: number;
}
