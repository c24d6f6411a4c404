import { FreeText } from '../common/validation/free-text.js';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsString, Matches, ValidateNested } from 'class-validator';
import { MoneyDto } from '../common/money/money.js';
import { OptionalNotNull, OptionalNullable } from '../common/validation/optional.js';
import { GENERIC_NATURA, NATURA_CODES } from '../invoices/fatturapa/index.js';

/** FatturaPA's limits on an invoice line (CodiceValore, Descrizione, UnitaMisura), so a product always fits on one. */
export const PRODUCT_LIMITS = { code: 35, description: 1000, unit_of_measure: 10 } as const;

/** A VAT percentage as FatturaPA's AliquotaIVA: 0 to 100 with at most two decimals, as a string. */
export const VAT_PERCENTAGE_PATTERN = /^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/;

@ApiSchema({ name: 'Product' })
export class ProductDto {
  @ApiProperty({ format: 'uuid', example: '2c4e6a8b-0d1f-4a3b-9c5d-7e9f1a3b5c7d' })
  id: string;

  @ApiProperty({ description: 'Unique within the company.', example: 'PIZZA-MARG' })
  code: string;

  @ApiProperty({ example: 'Pizza margherita' })
  description: string;

  @ApiProperty({ type: MoneyDto, description: 'Unit price, VAT excluded.', example: { amount: '8.50', currency: 'EUR' } })
  unit_price: MoneyDto;

  @ApiProperty({ type: String, nullable: true, example: 'PZ' })
  unit_of_measure: string | null;

  @ApiProperty({ description: 'VAT rate as a percentage with two decimals (AliquotaIVA).', example: '10.00' })
  vat_percentage: string;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: NATURA_CODES,
    description: 'FatturaPA Natura code saying why no VAT is charged: set exactly when `vat_percentage` is 0.',
    example: null,
  })
  tax_exemption: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-03-02T09:15:00.000Z' })
  created_at: string;

  @ApiProperty({ format: 'date-time', example: '2026-03-02T09:15:00.000Z' })
  updated_at: string;
}

/** A text member: a string, not blank, within its FatturaPA limit. */
function Text(name: keyof typeof PRODUCT_LIMITS): PropertyDecorator {
  const max = PRODUCT_LIMITS[name];
  return FreeText(name, max);
}

const TAX_EXEMPTION_MESSAGE =
  `tax_exemption must be a FatturaPA Natura code: ${NATURA_CODES.join(', ')} ` +
  `(the generic ${GENERIC_NATURA.join(', ')} are refused by the SDI since 2021: use a sub-code)`;

const DOCS = {
  code: { maxLength: PRODUCT_LIMITS.code, description: `1 to ${PRODUCT_LIMITS.code} characters, unique within the company.`, example: 'PIZZA-MARG' },
  description: { maxLength: PRODUCT_LIMITS.description, description: 'The line description an invoice takes.', example: 'Pizza margherita' },
  unit_price: { type: MoneyDto, description: 'Unit price, VAT excluded.', example: { amount: '8.50', currency: 'EUR' } },
  unit_of_measure: { type: String, nullable: true, maxLength: PRODUCT_LIMITS.unit_of_measure, example: 'PZ' },
  vat_percentage: {
    type: String,
    pattern: VAT_PERCENTAGE_PATTERN.source,
    description: 'VAT rate as a percentage, 0 to 100 with at most two decimals, as a string ("22", "10.00", "0"); answered with two decimals.',
    example: '10.00',
  },
  tax_exemption: {
    type: String,
    nullable: true,
    enum: NATURA_CODES,
    description:
      'FatturaPA Natura code saying why no VAT is charged: required when `vat_percentage` is 0, refused (422) otherwise. The generic N2, N3 and N6 are refused: the SDI no longer accepts them.',
    example: null,
  },
};

/** Product creation payload. */
@ApiSchema({ name: 'ProductCreatePayload' })
export class CreateProductDto {
  @ApiProperty(DOCS.code)
  @IsDefined({ message: 'code is required' })
  @Text('code')
  code: string;

  @ApiProperty(DOCS.description)
  @IsDefined({ message: 'description is required' })
  @Text('description')
  description: string;

  @ApiProperty(DOCS.unit_price)
  @IsDefined({ message: 'unit_price is required' })
  @IsObject({ message: 'unit_price must be a money object' })
  @ValidateNested()
  @Type(() => MoneyDto)
  unit_price: MoneyDto;

  @ApiPropertyOptional(DOCS.unit_of_measure)
  @OptionalNullable()
  @Text('unit_of_measure')
  unit_of_measure?: string | null;

  @ApiProperty(DOCS.vat_percentage)
  @IsDefined({ message: 'vat_percentage is required' })
  @IsString({ message: 'vat_percentage must be a string such as "22.00"' })
  @Matches(VAT_PERCENTAGE_PATTERN, { message: 'vat_percentage must be a percentage from 0 to 100 with at most two decimals, such as "22.00"' })
  vat_percentage: string;

  @ApiPropertyOptional(DOCS.tax_exemption)
  @OptionalNullable()
  @IsString({ message: 'tax_exemption must be a string' })
  @IsIn(NATURA_CODES, { message: TAX_EXEMPTION_MESSAGE })
  tax_exemption?: string | null;
}

/** Product update payload: the members present are changed; null clears `unit_of_measure` or `tax_exemption`. */
@ApiSchema({ name: 'ProductUpdatePayload' })
export class UpdateProductDto {
  @ApiPropertyOptional(DOCS.code)
  @OptionalNotNull()
  @Text('code')
  code?: string;

  @ApiPropertyOptional(DOCS.description)
  @OptionalNotNull()
  @Text('description')
  description?: string;

  @ApiPropertyOptional(DOCS.unit_price)
  @OptionalNotNull()
  @IsObject({ message: 'unit_price must be a money object' })
  @ValidateNested()
  @Type(() => MoneyDto)
  unit_price?: MoneyDto;

  @ApiPropertyOptional(DOCS.unit_of_measure)
  @OptionalNullable()
  @Text('unit_of_measure')
  unit_of_measure?: string | null;

  @ApiPropertyOptional(DOCS.vat_percentage)
  @OptionalNotNull()
  @IsString({ message: 'vat_percentage must be a string such as "22.00"' })
  @Matches(VAT_PERCENTAGE_PATTERN, { message: 'vat_percentage must be a percentage from 0 to 100 with at most two decimals, such as "22.00"' })
  vat_percentage?: string;

  @ApiPropertyOptional(DOCS.tax_exemption)
  @OptionalNullable()
  @IsString({ message: 'tax_exemption must be a string' })
  @IsIn(NATURA_CODES, { message: TAX_EXEMPTION_MESSAGE })
  tax_exemption?: string | null;
}
