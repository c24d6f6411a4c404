import { ApiError } from '../common/errors/api-error.js';
import { rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { isUuid } from '../common/validation/uuid.js';

/** What a create-invoice request asks beyond its body: its query, and what the caller may read. */
export interface CreateInvoiceOptions {
  issue: boolean;
  reconciliationIdentifier: string | null;
  /** The sectional that numbers the invoice (a JSON invoice without `numero`), or null: the invoice has its number. */
  sectionalId?: string | null;
  /**
   * Whether the caller may read the company's products (`products:read`): a line that names a `product_id` takes the
   * product's values, so it needs that permission too. Unset for Flusso's own callers (the demo).
   */
  productsReadable?: boolean;
}

/** A reconciliation_identifier: 1 to 140 printable ASCII characters, no space at either end. */
export const RECONCILIATION_IDENTIFIER = /^[\x21-\x7E](?:[\x20-\x7E]{0,138}[\x21-\x7E])?$/;

/** Parses the create-invoice query: `issue` (true/false, default false), `reconciliation_identifier`, `sectional_id`. */
export function parseCreateInvoiceQuery(query: QueryParams): CreateInvoiceOptions {
  rejectUnknownParams(query, ['issue', 'reconciliation_identifier', 'sectional_id']);
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (value !== undefined && typeof value !== 'string') throw ApiError.badQuery(name, `${name} may be given once.`);
    return value;
  };
  const issue = single('issue');
  if (issue !== undefined && issue !== 'true' && issue !== 'false') throw ApiError.badQuery('issue', `issue must be true or false, got "${issue}".`);
  const identifier = single('reconciliation_identifier');
  if (identifier !== undefined && !RECONCILIATION_IDENTIFIER.test(identifier)) {
    throw ApiError.badQuery(
      'reconciliation_identifier',
      'reconciliation_identifier must be 1 to 140 printable ASCII characters, not starting or ending with a space.',
    );
  }
  const sectionalId = single('sectional_id');
  if (sectionalId !== undefined && !isUuid(sectionalId)) throw ApiError.badQuery('sectional_id', 'sectional_id must be the uuid of a sectional.');
  return { issue: issue === 'true', reconciliationIdentifier: identifier ?? null, sectionalId: sectionalId ?? null };
}
