import type { EntityManager } from 'typeorm';
import { presentCategory } from '../categories/categories.service.js';
import { Category } from '../categories/category.entity.js';
import { byId } from '../common/database/find-owned.js';
import { groupBy } from '../common/database/group-by.js';
import { loadAll } from '../common/database/load-all.js';
import { money, type Money } from '../common/money/money.js';
import { Counterpart } from '../counterparts/counterpart.entity.js';
import { presentCounterpart } from '../counterparts/counterparts.service.js';
import { Flow } from '../flows/flow.entity.js';
import { presentFlow } from '../flows/flow.presenter.js';
import { Sectional } from '../sectionals/sectional.entity.js';
import { presentSectional } from '../sectionals/sectionals.service.js';
import type { DocumentDto } from './document.dto.js';
import type { Document } from './document.entity.js';

/** What a single document can expand (getDocument); lists expand fewer (documentList). */
export const DOCUMENT_EXPANSIONS = ['category', 'counterpart', 'flows', 'sectional', 'subcategory'] as const;
export const ALL_DOCUMENT_EXPANSIONS: ReadonlySet<string> = new Set(DOCUMENT_EXPANSIONS);

/**
 * Presents documents with the requested expansions, each loaded in one query for the whole page. Unexpanded members
 * are null; their ids are always present.
 */
export async function presentDocuments(manager: EntityManager, documents: Document[], expand: ReadonlySet<string>): Promise<DocumentDto[]> {
  const categories = manager.getRepository(Category);
  const [categoryById, subcategoryById, counterpartById, sectionalById, flowsByDocument] = await loadAll(manager, [
    async () =>
      expand.has('category')
        ? byId(
            categories,
            documents.map((d) => d.categoryId),
          )
        : null,
    async () =>
      expand.has('subcategory')
        ? byId(
            categories,
            documents.map((d) => d.subcategoryId),
          )
        : null,
    async () =>
      expand.has('counterpart')
        ? byId(
            manager.getRepository(Counterpart),
            documents.map((d) => d.counterpartId),
          )
        : null,
    async () =>
      expand.has('sectional')
        ? byId(
            manager.getRepository(Sectional),
            documents.map((d) => d.sectionalId),
          )
        : null,
    async () =>
      expand.has('flows') && documents.length
        ? manager
            .getRepository(Flow)
            .createQueryBuilder('f')
            .where('f.documentId IN (:...ids)', { ids: documents.map((d) => d.id) })
            .orderBy('f.expectedPaymentDate', 'ASC', 'NULLS LAST')
            .addOrderBy('f.createdAt', 'ASC')
            .addOrderBy('f.id', 'ASC')
            .getMany()
            .then((flows) => groupBy(flows, (f) => f.documentId))
        : null,
  ] as const);
  const category = (id: string | null, map: Map<string, Category> | null) => {
    const found = id && map ? map.get(id) : undefined;
    return found ? presentCategory(found) : null;
  };
  return documents.map((d) => {
    const counterpart = d.counterpartId && counterpartById ? counterpartById.get(d.counterpartId) : undefined;
    const sectional = d.sectionalId && sectionalById ? sectionalById.get(d.sectionalId) : undefined;
    return {
      id: d.id,
      number: d.number,
      type: d.type,
      status: d.status,
      format: d.format,
      is_e_invoice: d.isEInvoice,
      gross_amount: money(d.grossAmount, d.currency) as Money,
      vat_amount: money(d.vatAmount, d.currency) as Money,
      flows: flowsByDocument ? (flowsByDocument.get(d.id) ?? []).map(presentFlow) : null,
      category_id: d.categoryId,
      category: category(d.categoryId, categoryById),
      subcategory_id: d.subcategoryId,
      subcategory: category(d.subcategoryId, subcategoryById),
      counterpart_id: d.counterpartId,
      counterpart: counterpart ? presentCounterpart(counterpart) : null,
      sectional_id: d.sectionalId,
      sectional: sectional ? presentSectional(sectional) : null,
      progressive: d.progressive,
      created_at: d.createdAt.toISOString(),
      creation_date: d.creationDate,
      delivery_date: d.deliveryDate?.toISOString() ?? null,
      delivery_status: d.deliveryStatus,
      direction: d.direction,
      file_name: d.fileName,
      notes: d.notes,
      source_id: d.sourceId,
      updated_at: d.updatedAt.toISOString(),
      version: d.version,
    };
  });
}
