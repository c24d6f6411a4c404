import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { OptionalNullable } from '../common/validation/optional.js';
import type { CategoriesRepository } from './categories.repository.js';

/** The category and subcategory a document or a transaction carries. */
export interface Classification {
  categoryId: string | null;
  subcategoryId: string | null;
}

/** The members of a PATCH that classify a document or a transaction; left out means unchanged, null clears. */
export interface ClassificationChanges {
  category_id?: string | null;
  subcategory_id?: string | null;
}

/** Documents and validates `category_id` of a PATCH payload that implements ClassificationChanges. */
export const CategoryIdChange = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'uuid',
      nullable: true,
      description:
        'A top-level category of the company, or null to clear it (and the subcategory with it). Sent without `subcategory_id`, the subcategory stays when it belongs to the new category and is cleared otherwise.',
    }),
    OptionalNullable(),
    IsUUID('all', { message: 'category_id must be a uuid or null' }),
  );

/** Documents and validates `subcategory_id` of a PATCH payload that implements ClassificationChanges. */
export const SubcategoryIdChange = (what: 'document' | 'transaction') =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'uuid',
      nullable: true,
      description: `A subcategory of the company belonging to the \`category_id\` sent in the same request, else to the ${what}'s current category (422 \`subcategory_mismatch\` otherwise), or null to clear it.`,
    }),
    OptionalNullable(),
    IsUUID('all', { message: 'subcategory_id must be a uuid or null' }),
  );

/**
 * The classification a document or a transaction gets from a PATCH, by one rule for both:
 * - `category_id` names a top-level category of the company (404/403 at `/category_id`; a subcategory's id is a 422);
 *   null clears it, and with it the subcategory;
 * - `subcategory_id` names a subcategory of the company (404/403 at `/subcategory_id`; a top-level id is a 422) that
 *   belongs to the category the request sets, else to the current one: otherwise 422 `subcategory_mismatch`; null
 *   clears it;
 * - a new `category_id` alone keeps the current subcategory if it belongs to the new category, and clears it otherwise.
 * Ids come back in their stored (lower-case) form, so that comparing with the current values tells whether anything
 * changed. The categories named are read under a KEY SHARE lock held to the end of the caller's transaction
 * (CategoriesRepository.findOwnedInUse): a concurrent deletion either waits and then finds them in use (409
 * `category_in_use`), or went first, and then they are not found here.
 */
export async function classify(
  categories: CategoriesRepository,
  manager: EntityManager,
  companyId: string,
  current: Classification,
  changes: ClassificationChanges,
  what: 'document' | 'transaction',
): Promise<Classification> {
  let categoryId = current.categoryId;
  if (changes.category_id === null) categoryId = null;
  else if (changes.category_id !== undefined) {
    const category = await categories.findOwnedInUse(manager, companyId, changes.category_id, 'Category', '/category_id');
    if (category.parentId !== null) {
      throw ApiError.of(
        'unprocessable_entity',
        'category_id names a subcategory; use a top-level category, and put the subcategory in subcategory_id.',
        '/category_id',
      );
    }
    categoryId = category.id;
  }

  if (changes.subcategory_id === null) return { categoryId, subcategoryId: null };
  if (changes.subcategory_id === undefined) {
    if (current.subcategoryId === null) return { categoryId, subcategoryId: null };
    const subcategory = await categories.findById(manager, current.subcategoryId);
    return { categoryId, subcategoryId: subcategory !== null && subcategory.parentId === categoryId ? subcategory.id : null };
  }
  const subcategory = await categories.findOwnedInUse(manager, companyId, changes.subcategory_id, 'Subcategory', '/subcategory_id');
  if (subcategory.parentId === null) {
    throw ApiError.of('unprocessable_entity', 'subcategory_id names a top-level category; put it in category_id.', '/subcategory_id');
  }
  if (subcategory.parentId !== categoryId) {
    const whose =
      changes.category_id !== undefined
        ? changes.category_id === null
          ? `and this request clears the ${what}'s category`
          : 'not to the category_id of this request'
        : categoryId === null
          ? `and the ${what} has no category; send the subcategory's category_id with it`
          : `not to the ${what}'s category; send the subcategory's category_id with it`;
    throw ApiError.of('subcategory_mismatch', `The subcategory belongs to category ${subcategory.parentId}, ${whose}.`, '/subcategory_id');
  }
  return { categoryId, subcategoryId: subcategory.id };
}
