import { FreeText } from '../common/validation/free-text.js';
import { IsEmailAddress } from '../common/validation/email.js';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsISO31661Alpha2, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull, OptionalNullable } from '../common/validation/optional.js';

/** Fields shared by a stored counterpart and a registry lookup result. */
@ApiSchema({ name: 'CounterpartSearchResult' })
export class CounterpartSearchResultDto {
  @ApiProperty({ nullable: true, type: String, example: 'Via Roma 12' })
  address: string | null;

  @ApiProperty({ nullable: true, type: String, example: 'Milano' })
  city: string | null;

  @ApiProperty({ nullable: true, type: String, example: 'Bianchi Impianti S.r.l.' })
  company_name: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'ISO 3166-1 alpha-2.', example: 'IT' })
  country: string | null;

  @ApiProperty({ nullable: true, type: String, example: '20121' })
  postal_code: string | null;

  @ApiProperty({ nullable: true, type: String, example: 'MI' })
  province_code: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Codice fiscale.', example: '01234567890' })
  tax_number: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Partita IVA with country prefix.', example: 'IT01234567890' })
  vat_number: string | null;
}

@ApiSchema({ name: 'Counterpart' })
export class CounterpartDto extends CounterpartSearchResultDto {
  @ApiProperty({ format: 'uuid', example: '9d4b2c1a-7e6f-4a3b-8c2d-1e0f9a8b7c6d' })
  id: string;

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'SDI destination code (codice destinatario), 7 characters (6 for public administrations).',
    example: 'M5UXCR1',
  })
  destination_code: string | null;

  @ApiProperty({ type: String, format: 'email', nullable: true, description: 'PEC (certified e-mail) address.', example: 'bianchi.impianti@pec.it' })
  pec_address: string | null;
}

/** FatturaPA's limits (Denominazione, Indirizzo, Comune), so a counterpart always fits on an e-invoice. */
export const COUNTERPART_LIMITS = { company_name: 80, address: 60, city: 60 } as const;

/** A text member that may be left out or null; when given it is not blank and fits its limit. */
function Text(name: keyof typeof COUNTERPART_LIMITS): PropertyDecorator {
  const max = COUNTERPART_LIMITS[name];
  return FreeText(name, max);
}

/**
 * The members a counterpart is written with. Every one may be left out; null clears it. Identifiers are stored in
 * their canonical form (capitals, no spaces); the checks that depend on the country run in the service.
 */
class CounterpartFieldsDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 60, example: 'Via Roma 12' })
  @OptionalNullable()
  @Text('address')
  address?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 60, example: 'Milano' })
  @OptionalNullable()
  @Text('city')
  city?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'CAP: five digits for an Italian counterpart, up to 10 characters otherwise.',
    example: '20121',
  })
  @OptionalNullable()
  @IsString({ message: 'postal_code must be a string' })
  @Matches(/^[0-9A-Za-z -]{1,10}$/, { message: 'postal_code must be 1 to 10 letters, digits, spaces or dashes' })
  postal_code?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Italian province (sigla), two capital letters.', example: 'MI', pattern: '^[A-Z]{2}$' })
  @OptionalNullable()
  @IsString({ message: 'province_code must be a string' })
  @Matches(/^[A-Z]{2}$/, { message: 'province_code must be two capital letters, such as MI' })
  province_code?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'ISO 3166-1 alpha-2, in capitals. `IT` turns on the Italian checks.',
    example: 'IT',
    pattern: '^[A-Z]{2}$',
  })
  @OptionalNullable()
  @IsString({ message: 'country must be a string' })
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code in capitals, such as IT' })
  @IsISO31661Alpha2({ message: 'country must be an ISO 3166-1 alpha-2 code in capitals, such as IT' })
  country?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      "Codice fiscale. For an Italian counterpart (country IT): a person's 16 characters with a valid check character, or a company's 11 digits (its partita IVA, with a valid check digit). Stored in capitals without spaces.",
    example: '01234567890',
  })
  @OptionalNullable()
  @IsString({ message: 'tax_number must be a string' })
  @MaxLength(40, { message: 'tax_number must be at most 40 characters long' })
  tax_number?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      "VAT number. Stored with its country prefix, in capitals, without spaces: without a prefix it takes the country's (IT when there is no country). An Italian one (IT) must have a valid check digit. Unique within the company.",
    example: 'IT01234567890',
  })
  @OptionalNullable()
  @IsString({ message: 'vat_number must be a string' })
  @MaxLength(40, { message: 'vat_number must be at most 40 characters long' })
  vat_number?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'SDI destination code: 7 characters (codice destinatario; `0000000` when invoices go by PEC, `XXXXXXX` abroad) or 6 for a public administration (codice univoco ufficio). Stored in capitals.',
    example: 'M5UXCR1',
  })
  @OptionalNullable()
  @IsString({ message: 'destination_code must be a string' })
  @Matches(/^[0-9A-Za-z]{6,7}$/, { message: 'destination_code must be 7 letters or digits (6 for a public administration)' })
  destination_code?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'email',
    nullable: true,
    maxLength: 256,
    description: 'PEC (certified e-mail) address.',
    example: 'bianchi.impianti@pec.it',
  })
  @OptionalNullable()
  @IsString({ message: 'pec_address must be a string' })
  @MaxLength(256, { message: 'pec_address must be at most 256 characters long' })
  @IsEmailAddress({ message: 'pec_address must be an e-mail address' })
  pec_address?: string | null;
}

/** Counterpart creation payload: a company name and any of the other members. */
@ApiSchema({ name: 'CounterpartCreatePayload' })
export class CreateCounterpartDto extends CounterpartFieldsDto {
  @ApiProperty({ maxLength: 80, description: 'Company name (denominazione), or first and last name of a person.', example: 'Bianchi Impianti S.r.l.' })
  @IsDefined({ message: 'company_name is required' })
  @Text('company_name')
  company_name: string;
}

/** Counterpart update payload: the members present are changed, null clears one (company_name cannot be cleared). */
@ApiSchema({ name: 'CounterpartUpdatePayload' })
export class UpdateCounterpartDto extends CounterpartFieldsDto {
  @ApiPropertyOptional({ maxLength: 80, example: 'Bianchi Impianti S.r.l.' })
  @OptionalNotNull()
  @Text('company_name')
  company_name?: string;
}
