import type { CategoryDto, SubcategoryDto } from './category.dto.js';
import type { Category } from './category.entity.js';

export const presentCategory = (category: Category): CategoryDto => ({ id: category.id, name: category.name });

export const presentSubcategory = (subcategory: Category): SubcategoryDto => ({
  id: subcategory.id,
  name: subcategory.name,
  category_id: subcategory.parentId as string,
});
