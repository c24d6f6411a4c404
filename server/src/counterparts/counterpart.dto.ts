import { ApiProperty, ApiSchema } from '@nestjs/swagger';

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

  @ApiProperty({ nullable: true, type: String, description: 'SDI destination code (codice destinatario), 7 characters (6 for public administrations).', example: 'M5UXCR1' })
  destination_code: string | null;
}
