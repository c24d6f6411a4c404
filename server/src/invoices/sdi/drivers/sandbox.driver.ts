import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../config/config.js';
import { XmlPool } from '../../fatturapa/index.js';
import { InvoicesRepository } from '../../invoices.repository.js';
import { SDI_QUEUE, type SdiChannel, type SdiFile } from '../sdi-channel.port.js';
import { SdiNotifications } from '../sdi-notifications.js';
import type { SdiNotice } from '../sdi-notices.js';
import { sandboxOutcome } from '../sandbox-triggers.js';
import { withQueueTimeout } from '../../../common/events/outbox-loop.js';
import { SandboxNoticesRepository } from './sandbox-notices.repository.js';
import { logQueueErrors } from '../../../common/events/queue-consumers.js';

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
  return judge(new SandboxNoticesRepository(db), xml, documentId);
}

async function judge(notices: SandboxNoticesRepository, xml: XmlPool, documentId: string): Promise<SdiNotice[] | null> {
  const document = await notices.document(documentId);
  if (!document) return null;
  const loaded = await new InvoicesRepository(notices.manager.connection).loadStored(notices.manager, document.companyId, documentId);
  if (!loaded) return null;
  const errors: string[] = [];
  if (!FILE_NAME.test(loaded.document.fileName ?? '')) errors.push('00001');
  // In the XML pool, as the API reads files; a busy pool throws and the job is retried.
  const checked = await xml.check(loaded.xml, { vat_number: await notices.companyVatNumber(loaded.document.companyId) });
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
    private readonly notices: SandboxNoticesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(SDI_QUEUE) private readonly queue: Queue<SandboxJob>,
    private readonly notifications: SdiNotifications,
    private readonly xml: XmlPool,
  ) {
    logQueueErrors(queue);
  }

  async transmit(file: SdiFile): Promise<void> {
    const delay = this.delayOf(0);
    await this.notices.oweFirst(file.companyId, file.documentId, delay);
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
    let queued = 0;
    for (const { documentId, step, dueAt } of await this.notices.owed()) {
      const job = await withQueueTimeout(this.queue.getJob(jobId(documentId, step)), 'reading a job');
      if (job && !(await withQueueTimeout(job.isFailed(), 'reading a job'))) continue;
      if (job) await withQueueTimeout(job.remove(), 'removing a failed job');
      await withQueueTimeout(this.enqueue(documentId, step, Math.max(0, dueAt.getTime() - Date.now())), 'queueing a notice');
      queued++;
    }
    if (queued) this.logger.warn(`${queued} SDI sandbox notice(s) had lost their job (Redis restarted empty?) or failed; queued again`);
    return queued;
  }

  /** What the SDI answers for the stored file (sandboxOutcomeOf). */
  outcomeOf(documentId: string): Promise<SdiNotice[] | null> {
    return judge(this.notices, this.xml, documentId);
  }

  /**
   * Sends the step's notice if it is still owed, then owes the next one, if any. Throws while the document is not SENT
   * yet (the job is retried).
   */
  async run(job: SandboxJob): Promise<void> {
    if (!(await this.notices.isOwed(job.documentId, job.step))) return;
    const outcome = await this.outcomeOf(job.documentId);
    const notice = outcome?.[job.step];
    const result = notice ? await this.notifications.apply(job.documentId, notice) : 'refused';
    if (result === 'refused') {
      if ((await this.notices.document(job.documentId))?.status === 'CREATED')
        throw new Error(`document ${job.documentId} is not SENT yet; the sandbox's notice waits`);
    }
    const next = result !== 'refused' && outcome && job.step + 1 < outcome.length ? job.step + 1 : null;
    const delay = this.delayOf(job.step + 1);
    const scheduled = await this.notices.sent(job.documentId, job.step, next, delay);
    if (scheduled && next !== null) await this.enqueue(job.documentId, next, delay);
  }
}
