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
