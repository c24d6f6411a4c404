import { presentCategory } from '../categories/category.presenter.js';
import type { Category } from '../categories/category.entity.js';
import { money, type Money } from '../common/money/money.js';
import type { Counterpart } from '../counterparts/counterpart.entity.js';
import { presentCounterpart } from '../counterparts/counterpart.presenter.js';
import type { Flow } from '../flows/flow.entity.js';
import { presentFlow } from '../flows/flow.presenter.js';
import type { Sectional } from '../sectionals/sectional.entity.js';
import { presentSectional } from '../sectionals/sectional.presenter.js';
import type { DocumentDto } from './document.dto.js';
import type { Document } from './document.entity.js';
import { instant, instantOrNull } from '../common/time/instant.js';

/** What a single document can expand (getDocument); lists expand fewer (documentList). */
export const DOCUMENT_EXPANSIONS = ['category', 'counterpart', 'flows', 'sectional', 'subcategory'] as const;
export const ALL_DOCUMENT_EXPANSIONS: ReadonlySet<string> = new Set(DOCUMENT_EXPANSIONS);

/** What documents' expansions show, by id (flows by document id, in flowOrder); null for an expansion not asked for. */
export interface DocumentRelations {
  categoryById: Map<string, Category> | null;
  subcategoryById: Map<string, Category> | null;
  counterpartById: Map<string, Counterpart> | null;
  sectionalById: Map<string, Sectional> | null;
  flowsByDocument: Map<string, Flow[]> | null;
}

/** The order of a document's flows: by expected payment date (none last), then creation, then id. */
export function flowOrder(a: Flow, b: Flow): number {
  if (a.expectedPaymentDate !== b.expectedPaymentDate) {
    if (a.expectedPaymentDate === null) return 1;
    if (b.expectedPaymentDate === null) return -1;
    return a.expectedPaymentDate < b.expectedPaymentDate ? -1 : 1;
  }
  const created = a.createdAt.getTime() - b.createdAt.getTime();
  return created !== 0 ? created : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Presents documents from their rows and the rows their expansions show (DocumentsRepository.relations). */
export function presentDocuments(documents: Document[], relations: DocumentRelations): DocumentDto[] {
  return documents.map((d) => presentDocument(d, relations));
}

/** One document, its expansions taken from rows already loaded. */
export function presentDocument(
  d: Document,
  { categoryById, subcategoryById, counterpartById, sectionalById, flowsByDocument }: DocumentRelations,
): DocumentDto {
  const category = (id: string | null, map: Map<string, Category> | null) => {
    const found = id && map ? map.get(id) : undefined;
    return found ? presentCategory(found) : null;
  };
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
    created_at: instant(d.createdAt),
    creation_date: d.creationDate,
    delivery_date: instantOrNull(d.deliveryDate),
    delivery_status: d.deliveryStatus,
    direction: d.direction,
    file_name: d.fileName,
    notes: d.notes,
    source_id: d.sourceId,
    updated_at: instant(d.updatedAt),
    version: d.version,
  };
}
