import type { MigrationInterface, QueryRunner } from 'typeorm';
import { signatureOf } from '../server/src/invoices/fatturapa/index.js';

/** Invoices read per round: each holds its file (up to 5 MB), so a round's memory stays bounded. */
const BATCH = 100;

/**
 * Invoices stored before the JSON form kept a closing XAdES `ds:Signature` (its read-only member `signature`) have the
 * signature in their stored XML and not in their JSON, so the JSON view lacks it and XML rebuilt from that JSON drops it.
 * This reads the signature back from each stored file that closes one and writes the member, as the reader does for a
 * new file (`signatureOf`, fatturapa/index.ts). Rounds of BATCH rows by document id; only rows without the member are
 * read, so running it again finds nothing. The document itself is unchanged (no version, no event): its JSON view was
 * incomplete, not different.
 */
export class InvoiceSignatures1795463100000 implements MigrationInterface {
  name = 'InvoiceSignatures1795463100000';

  async up(db: QueryRunner): Promise<void> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      // 'Signature>' closes a signature with or without a prefix; the XML reader decides whether it is one.
      const rows: { document_id: string; xml: Buffer }[] = await db.query(
        `SELECT document_id, xml FROM invoices
          WHERE document_id > $1 AND NOT invoice ? 'signature' AND position('Signature>'::bytea IN xml) > 0
          ORDER BY document_id LIMIT $2`,
        [after, BATCH],
      );
      if (!rows.length) return;
      for (const row of rows) {
        const signature = signatureOf(row.xml);
        if (signature === undefined) continue;
        await db.query(
          `UPDATE invoices SET invoice = invoice || jsonb_build_object('signature', $2::text)
            WHERE document_id = $1 AND NOT invoice ? 'signature'`,
          [row.document_id, signature],
        );
      }
      after = rows[rows.length - 1].document_id;
    }
  }

  async down(): Promise<void> {
    // The member belongs in the JSON of a signed file: there is nothing to undo.
  }
}
