import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { Company } from '../../companies/company.entity.js';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { parseInvoiceXml, sdiChecks } from '../fatturapa/index.js';
import { loadStoredInvoice } from '../invoice-store.js';
import { SDI_QUEUE, SdiChannel, type SdiFile } from './sdi-channel.js';
import { SdiNotifications } from './sdi-notifications.js';
import type { SdiNotice } from './sdi-notices.js';
import { sandboxOutcome } from './sandbox-triggers.js';

export const SANDBOX_JOB = 'sandbox-notice';

export interface SandboxJob {
  documentId: string;
  /** Which of the outcome's notices this job sends (0: after the first delay; later ones after the second). */
  step: number;
}

/** The SDI's file-name rule (00001): country, sender's code, `_`, a progressive of 1 to 5 characters [A-Z0-9], `.xml`. */
const FILE_NAME = /^[A-Z]{2}[0-9A-Z]{2,28}_[0-9A-Z]{1,5}\.xml$/;

/**
 * The development SDI. It takes the file at once, then, as the SDI does, judges it on its own (the file name, the
 * schema and the checks beyond it: a failure is a discard with the SDI's codes) and sends its notifications through
 * BullMQ jobs after realistic delays (SDI_SANDBOX_DELAYS): delivery, or the outcome the buyer's CodiceDestinatario
 * asks for (sandbox-triggers.ts). Deterministic: the same file always has the same outcome.
 */
@Injectable()
export class SandboxSdiChannel extends SdiChannel {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(SDI_QUEUE) private readonly queue: Queue<SandboxJob>,
    private readonly notifications: SdiNotifications,
  ) {
    super();
  }

  async transmit(file: SdiFile): Promise<void> {
    await this.schedule(file.documentId, 0);
  }

  private schedule(documentId: string, step: number): Promise<unknown> {
    const delay = this.config.invoices.sandboxDelaysMs[step === 0 ? 0 : 1];
    return this.queue.add(
      SANDBOX_JOB,
      { documentId, step },
      { jobId: `sandbox-${documentId}-${step}`, delay, attempts: 8, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: 1000, removeOnFail: 1000 },
    );
  }

  /** What the SDI answers for the stored file: a discard when its checks fail, else the outcome its recipient code asks for. */
  async outcomeOf(documentId: string): Promise<SdiNotice[] | null> {
    const document = await this.db.query(`SELECT company_id FROM documents WHERE id = $1`, [documentId]);
    if (!document.length) return null;
    const loaded = await loadStoredInvoice(this.db.manager, document[0].company_id, documentId);
    if (!loaded) return null;
    const errors: string[] = [];
    if (!FILE_NAME.test(loaded.document.fileName ?? '')) errors.push('00001');
    const parsed = parseInvoiceXml(loaded.xml);
    if (!parsed.invoice) errors.push('00200');
    else {
      const company = await this.db.getRepository(Company).findOneByOrFail({ id: loaded.document.companyId });
      for (const problem of sdiChecks(parsed.invoice, { vat_number: company.vatNumber })) if (problem.code) errors.push(problem.code);
    }
    if (errors.length) return [{ kind: 'NS', errors: [...new Set(errors)].sort() }];
    const transmission = loaded.invoice.fattura_elettronica_header.dati_trasmissione;
    return sandboxOutcome(transmission.formato_trasmissione, transmission.codice_destinatario);
  }

  /** Sends the step's notice, and schedules the next one. Throws while the document is not SENT yet (the job is retried). */
  async run(job: SandboxJob): Promise<void> {
    const outcome = await this.outcomeOf(job.documentId);
    if (!outcome || job.step >= outcome.length) return;
    const result = await this.notifications.apply(job.documentId, outcome[job.step]);
    if (result === 'refused') {
      const [row] = await this.db.query(`SELECT status FROM documents WHERE id = $1`, [job.documentId]);
      if (row?.status === 'CREATED') throw new Error(`document ${job.documentId} is not SENT yet; the sandbox's notice waits`);
      return;
    }
    if (job.step + 1 < outcome.length) await this.schedule(job.documentId, job.step + 1);
  }
}
