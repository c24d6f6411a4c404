import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'Category' })
export class CategoryDto {
  @ApiProperty({ format: 'uuid', example: '0b8e7f4c-52d1-4f3a-9c55-1d2e3f4a5b6c' })
  id: string;

  @ApiProperty({ example: 'Utenze' })
  name: string;
}

/** A category or subcategory as it appears inside a document or a transaction. */
@ApiSchema({ name: 'CategoryRef' })
export class CategoryRefDto extends CategoryDto {}
