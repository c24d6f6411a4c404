import { FreeText } from '../common/validation/free-text.js';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsUUID } from 'class-validator';

/** Longest category or subcategory name: enough for any chart of accounts, short enough for a list column. */
export const CATEGORY_NAME_MAX_LENGTH = 100;

/** The name rules shared by every category and subcategory payload. */
function CategoryName(): PropertyDecorator {
  return (target, property) => {
    IsDefined({ message: 'name is required' })(target, property);
    FreeText('name', CATEGORY_NAME_MAX_LENGTH)(target, property);
  };
}

@ApiSchema({ name: 'Category' })
export class CategoryDto {
  @ApiProperty({ format: 'uuid', example: '0b8e7f4c-52d1-4f3a-9c55-1d2e3f4a5b6c' })
  id: string;

  @ApiProperty({ example: 'Utenze' })
  name: string;
}

@ApiSchema({ name: 'Subcategory' })
export class SubcategoryDto {
  @ApiProperty({ format: 'uuid', example: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f' })
  id: string;

  @ApiProperty({ example: 'Energia elettrica' })
  name: string;

  @ApiProperty({ format: 'uuid', description: 'The top-level category the subcategory belongs to.', example: '0b8e7f4c-52d1-4f3a-9c55-1d2e3f4a5b6c' })
  category_id: string;
}

const NAME_DOC = { description: `1 to ${CATEGORY_NAME_MAX_LENGTH} characters, not blank. Names need not be unique.`, maxLength: CATEGORY_NAME_MAX_LENGTH };

/** Category creation payload. */
@ApiSchema({ name: 'CategoryCreatePayload' })
export class CreateCategoryDto {
  @ApiProperty({ ...NAME_DOC, example: 'Utenze' })
  @CategoryName()
  name: string;
}

/** Category update payload: the same members as the creation's. */
@ApiSchema({ name: 'CategoryUpdatePayload' })
export class UpdateCategoryDto extends CreateCategoryDto {}

/** Subcategory creation payload. */
@ApiSchema({ name: 'SubcategoryCreatePayload' })
export class CreateSubcategoryDto {
  @ApiProperty({ format: 'uuid', description: 'A top-level category of the company.', example: '0b8e7f4c-52d1-4f3a-9c55-1d2e3f4a5b6c' })
  @IsDefined({ message: 'category_id is required' })
  @IsUUID('all', { message: 'category_id must be a uuid' })
  category_id: string;

  @ApiProperty({ ...NAME_DOC, example: 'Energia elettrica' })
  @CategoryName()
  name: string;
}

/** Subcategory update payload: the name. A subcategory stays under the category it was created in. */
@ApiSchema({ name: 'SubcategoryUpdatePayload' })
export class UpdateSubcategoryDto {
  @ApiProperty({ ...NAME_DOC, example: 'Energia elettrica' })
  @CategoryName()
  name: string;
}
