import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { Company } from '../../../companies/company.entity.js';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { XmlPool } from '../../fatturapa/index.js';
import { loadStoredInvoice } from '../../invoice-store.js';
import { SDI_QUEUE, type SdiChannel, type SdiFile } from '../sdi-channel.port.js';
import { SdiNotifications } from '../sdi-notifications.js';
import type { SdiNotice } from '../sdi-notices.js';
import { sandboxOutcome } from '../sandbox-triggers.js';
import { withQueueTimeout } from '../../../common/events/outbox-loop.js';

export const SANDBOX_JOB = 'sandbox-notice';

export interface SandboxJob {
  documentId: string;
  /** Which of the outcome's notices this job sends (0: after the first delay; later ones after the second). */
  step: number;
}

/** The SDI's file-name rule (00001): country, sender's code, `_`, a progressive of 1 to 5 characters [A-Z0-9], `.xml` or `.xml.p7m`. */
const FILE_NAME = /^[A-Z]{2}[0-9A-Z]{2,28}_[0-9A-Z]{1,5}\.xml(\.p7m)?$/;

const jobId = (documentId: string, step: number) => `sandbox-${documentId}-${step}`;

/**
 * What the sandbox SDI answers for a document's stored file: a discard when its checks fail, else the outcome its
 * recipient code asks for. Null when the document or its file is gone. The channel and the sandbox helper that
 * delivers pending notices at once (sandbox/) both judge through here.
 */
export async function sandboxOutcomeOf(db: DataSource, xml: XmlPool, documentId: string): Promise<SdiNotice[] | null> {
  const document = await db.query(`SELECT company_id FROM documents WHERE id = $1`, [documentId]);
  if (!document.length) return null;
  const loaded = await loadStoredInvoice(db.manager, document[0].company_id, documentId);
  if (!loaded) return null;
  const errors: string[] = [];
  if (!FILE_NAME.test(loaded.document.fileName ?? '')) errors.push('00001');
  const company = await db.getRepository(Company).findOneByOrFail({ id: loaded.document.companyId });
  // In the XML pool, as the API reads files; a busy pool throws and the job is retried.
  const checked = await xml.check(loaded.xml, { vat_number: company.vatNumber });
  if (!checked.invoice) errors.push('00200');
  else for (const problem of checked.sdiProblems) if (problem.code) errors.push(problem.code);
  if (errors.length) return [{ kind: 'NS', errors: [...new Set(errors)].sort() }];
  const transmission = loaded.invoice.fattura_elettronica_header.dati_trasmissione;
  return sandboxOutcome(transmission.formato_trasmissione, transmission.codice_destinatario);
}

/**
 * The development SDI. It takes the file at once, then, as the SDI does, judges it on its own (the file name, the
 * schema and the checks beyond it: a failure is a discard with the SDI's codes) and sends its notifications through
 * BullMQ jobs after realistic delays (SDI_SANDBOX_DELAYS): delivery, or the outcome the buyer's CodiceDestinatario
 * asks for (sandbox-triggers.ts). Deterministic: the same file always has the same outcome.
 *
 * PostgreSQL is the record of what it still owes (`sdi_sandbox_notices`: one row per notice, due at its time); a job
 * acts only while its row exists, and the row of the next notice replaces it in one statement. So a job lost with
 * Redis is queued again by sweep(), and a job run twice sends nothing twice.
 */
@Injectable()
export class SandboxSdiChannel implements SdiChannel {
  private readonly logger = new Logger(SandboxSdiChannel.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(SDI_QUEUE) private readonly queue: Queue<SandboxJob>,
    private readonly notifications: SdiNotifications,
    private readonly xml: XmlPool,
  ) {}

  async transmit(file: SdiFile): Promise<void> {
    const delay = this.delayOf(0);
    await this.db.query(
      `INSERT INTO sdi_sandbox_notices (company_id, document_id, step, due_at) VALUES ($1, $2, 0, now() + make_interval(secs => $3::int / 1000.0))
         ON CONFLICT DO NOTHING`,
      [file.companyId, file.documentId, delay],
    );
    await this.enqueue(file.documentId, 0, delay);
  }

  private delayOf(step: number): number {
    return this.config.invoices.sandboxDelaysMs[step === 0 ? 0 : 1];
  }

  private enqueue(documentId: string, step: number, delay: number): Promise<unknown> {
    return this.queue.add(
      SANDBOX_JOB,
      { documentId, step },
      { jobId: jobId(documentId, step), delay, attempts: 8, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: 1000, removeOnFail: 1000 },
    );
  }

  /**
   * Queues again, each at its due time, the notices PostgreSQL says are owed whose job is gone (Redis restarted empty)
   * or failed for good; returns how many.
   */
  async sweep(): Promise<number> {
    const owed: Array<{ document_id: string; step: number; due_at: Date }> = await this.db.query(
      `SELECT document_id, step, due_at FROM sdi_sandbox_notices ORDER BY due_at LIMIT 1000`,
    );
    let queued = 0;
    for (const { document_id, step, due_at } of owed) {
      const job = await withQueueTimeout(this.queue.getJob(jobId(document_id, step)), 'reading a job');
      if (job && !(await withQueueTimeout(job.isFailed(), 'reading a job'))) continue;
      if (job) await withQueueTimeout(job.remove(), 'removing a failed job');
      await withQueueTimeout(this.enqueue(document_id, step, Math.max(0, due_at.getTime() - Date.now())), 'queueing a notice');
      queued++;
    }
    if (queued) this.logger.warn(`${queued} SDI sandbox notice(s) had lost their job (Redis restarted empty?) or failed; queued again`);
    return queued;
  }

  /** What the SDI answers for the stored file (sandboxOutcomeOf). */
  outcomeOf(documentId: string): Promise<SdiNotice[] | null> {
    return sandboxOutcomeOf(this.db, this.xml, documentId);
  }

  /**
   * Sends the step's notice if it is still owed, then owes the next one, if any. Throws while the document is not SENT
   * yet (the job is retried).
   */
  async run(job: SandboxJob): Promise<void> {
    const owed = await this.db.query(`SELECT 1 FROM sdi_sandbox_notices WHERE document_id = $1 AND step = $2`, [job.documentId, job.step]);
    if (!owed.length) return;
    const outcome = await this.outcomeOf(job.documentId);
    const notice = outcome?.[job.step];
    const result = notice ? await this.notifications.apply(job.documentId, notice) : 'refused';
    if (result === 'refused') {
      const [row] = await this.db.query(`SELECT status FROM documents WHERE id = $1`, [job.documentId]);
      if (row?.status === 'CREATED') throw new Error(`document ${job.documentId} is not SENT yet; the sandbox's notice waits`);
    }
    const next = result !== 'refused' && outcome && job.step + 1 < outcome.length ? job.step + 1 : null;
    const delay = this.delayOf(job.step + 1);
    // The notice is sent: its row goes and, in the same statement, the next notice's row comes.
    const scheduled: unknown[] = await this.db.query(
      `WITH sent AS (DELETE FROM sdi_sandbox_notices WHERE document_id = $1 AND step = $2 RETURNING company_id, document_id)
       INSERT INTO sdi_sandbox_notices (company_id, document_id, step, due_at)
       SELECT company_id, document_id, $3, now() + make_interval(secs => $4::int / 1000.0) FROM sent WHERE $3::int IS NOT NULL
       RETURNING step`,
      [job.documentId, job.step, next, delay],
    );
    if (scheduled.length && next !== null) await this.enqueue(job.documentId, next, delay);
  }
}
