import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A transaction's amount is allocated across the flows it pays: each reconciliation gets the amount of the
 * transaction that pays its flow, and each flow the sum of its allocations (paid_amount), never more than its amount.
 * Before, every flow linked to a transaction counted the whole transaction, so one transfer could pay several flows
 * in full. Existing links are allocated in the order they were made, each taking what remains of both its transaction
 * and its flow (possibly nothing). Flows that only the old counting made PAID go back to TO_PAY, flows that their
 * allocations cover are PAID, and the documents of the flows so corrected move to a new version.
 */
export class ReconciliationAmounts1795431734858 implements MigrationInterface {
  name = 'ReconciliationAmounts1795431734858';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE reconciliations ADD COLUMN amount numeric, ADD COLUMN currency char(3)`);
    await db.query(`UPDATE reconciliations r SET currency = f.currency FROM flows f WHERE f.id = r.flow_id`);
    await db.query(`ALTER TABLE flows ADD COLUMN paid_amount numeric NOT NULL DEFAULT 0`);
    await db.query(`
      DO $$
      DECLARE
        link record;
        allocated numeric;
      BEGIN
        FOR link IN SELECT id, flow_id, transaction_id FROM reconciliations ORDER BY created_at, id LOOP
          SELECT least(f.amount - f.paid_amount,
                       t.amount - coalesce((SELECT sum(o.amount) FROM reconciliations o WHERE o.transaction_id = t.id), 0))
            INTO allocated
            FROM flows f, transactions t
           WHERE f.id = link.flow_id AND t.id = link.transaction_id;
          UPDATE reconciliations SET amount = allocated WHERE id = link.id;
          UPDATE flows SET paid_amount = paid_amount + allocated WHERE id = link.flow_id;
        END LOOP;
      END $$`);
    await db.query(`
      ALTER TABLE reconciliations
        ALTER COLUMN amount SET NOT NULL,
        ALTER COLUMN currency SET NOT NULL,
        ADD CONSTRAINT reconciliations_amount_not_negative CHECK (amount >= 0)`);
    await db.query(`ALTER TABLE flows ADD CONSTRAINT flows_paid_within_amount CHECK (paid_amount >= 0 AND paid_amount <= amount)`);

    // Statuses that the allocations contradict: PAID by the old counting only, or covered yet TO_PAY.
    await db.query(`
      WITH coverage AS (
        SELECT f.id, f.document_id, f.paid_amount >= f.amount AS covered, sum(t.amount) >= f.amount AS counted, max(t.date) AS last_date
          FROM flows f JOIN reconciliations r ON r.flow_id = f.id JOIN transactions t ON t.id = r.transaction_id
         GROUP BY f.id
      ), corrected AS (
        UPDATE flows f
           SET payment_status = CASE WHEN c.covered THEN 'PAID' ELSE 'TO_PAY' END,
               payment_date = CASE WHEN c.covered THEN c.last_date END
          FROM coverage c
         WHERE f.id = c.id AND ((c.covered AND f.payment_status = 'TO_PAY') OR (NOT c.covered AND c.counted AND f.payment_status = 'PAID'))
        RETURNING f.document_id
      )
      UPDATE documents d
         SET version = version + 1, updated_at = greatest(updated_at + interval '1 millisecond', clock_timestamp())
       WHERE d.id IN (SELECT document_id FROM corrected)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE flows DROP COLUMN paid_amount`);
    await db.query(`ALTER TABLE reconciliations DROP COLUMN amount, DROP COLUMN currency`);
  }
}
