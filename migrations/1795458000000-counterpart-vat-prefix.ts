import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counterparts created from e-invoices before a foreign IdCodice that repeats its country (`GB` + `GB99999999999`) was
 * read once got the VAT number `GBGB99999999999`. Each becomes `GB99999999999` when that is safe: the company has no
 * other counterpart with that number already (the VAT number is unique in a company; the pair is left for a person to
 * merge). Switzerland is the exception, as in vatNumber() (parties.ts): its UID begins with its letters (`CHE…`), so
 * `CHCHE…` is no repeat. The rows changed get a new `updated_at`. Nothing to undo: the doubled numbers were wrong.
 */
export class CounterpartVatPrefix1795458000000 implements MigrationInterface {
  name = 'CounterpartVatPrefix1795458000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      UPDATE counterparts c
         SET vat_number = substr(c.vat_number, 3), updated_at = now()
       WHERE c.vat_number ~ '^([A-Z]{2})\\1'
         AND left(c.vat_number, 2) <> 'CH'
         AND NOT EXISTS (SELECT 1 FROM counterparts o WHERE o.company_id = c.company_id AND o.vat_number = substr(c.vat_number, 3))`);
  }

  async down(): Promise<void> {
    // The doubled prefixes were a reading mistake: there is nothing to restore.
  }
}
