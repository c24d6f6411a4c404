import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EventsService } from '../common/events/events.service.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ALL_DOCUMENT_EXPANSIONS, presentDocuments } from '../documents/document.presenter.js';
import { DocumentsRepository } from '../documents/documents.repository.js';
import { F24Ocr, findTessdata } from './f24-ocr.js';
import type { F24FileKind } from './f24-file.js';
import { readF24File } from './f24-reader.js';
import { openPdf } from './f24-pdf.js';
import { writeF24Pdf } from './f24-writer.js';
import { presentF24Request } from './f24.presenter.js';
import { F24Repository } from './f24.repository.js';
import { FILE_STORAGE, type FileStorage } from './storage/file-storage.port.js';

const KINDS: Record<string, F24FileKind> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpeg' };

/**
 * The worker's reading of one F24 request: the stored file read (text layer, OCR where needed), the contributor
 * compared with the company, then in one transaction the document and its flow (PROCESSED) with `document.created`
 * (the document as GET answers it, every member expanded), or the reason (FAILED), and the `f24.processed` /
 * `f24.failed` event with the request as the API shows it.
 */
@Injectable()
export class F24Processing implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(F24Processing.name);
  private ocr: F24Ocr | null = null;
  private warming: Promise<void> | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repository: F24Repository,
    private readonly documents: DocumentsRepository,
    private readonly events: EventsService,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The OCR's language data is looked for at start: a worker without it says which package to install. */
  onModuleInit(): void {
    const found = findTessdata();
    if ('missing' in found) this.logger.error(found.missing);
    else this.ocr = new F24Ocr(found.dir);
  }

  /**
   * pdfjs loads its parser and font data on the first file (about 3 s), tesseract its language data (about 2 s): both
   * are done once at start, in the background, so the first forms do not wait for them.
   */
  onApplicationBootstrap(): void {
    if (!this.config.f24.warmUp) return;
    this.warming = (async () => {
      const pdf = await openPdf(await writeF24Pdf({ tax_code: '', name: '', payment_date: '2026-01-01', sections: [] }));
      await pdf.getPage(1);
      await pdf.destroy();
      await this.ocr?.warmUp();
    })().catch((error: Error) => this.logger.warn(`F24 reader warm-up failed: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.warming;
    await this.ocr?.close();
  }

  async process(requestId: string): Promise<void> {
    const row = await this.repository.find(requestId);
    if (row?.status !== 'WAITING_OCR') return;
    const stored = await this.storage.get(row.storage_key);
    if (!stored) throw new Error(`F24 request ${requestId}: its file ${row.storage_key} is not in storage`);
    const { result, sources } = await readF24File(stored.content, KINDS[stored.mediaType] ?? 'pdf', this.ocr);
    let outcome = result;
    if (outcome.ok) {
      const own = await this.repository.companyTaxCodes(row.company_id);
      if (!own.includes(outcome.reading.tax_code)) {
        outcome = {
          ok: false,
          failure: {
            reason: 'contributor_not_company',
            detail: `The form's contributor is ${outcome.reading.tax_code}, not the company${own.length ? ` (${own.join(', ')})` : ' (which has no partita IVA or codice fiscale on record)'}.`,
          },
        };
      }
    }
    await this.db.transaction(async (manager) => {
      const locked = await this.repository.lockWaiting(manager, requestId);
      if (!locked) return;
      const done = outcome.ok
        ? await this.repository.complete(manager, locked, outcome.reading, sources)
        : await this.repository.fail(manager, locked, outcome.failure, sources);
      if (done.document_id) {
        const document = await this.documents.findOwned(manager, done.company_id, done.document_id);
        const [presented] = presentDocuments([document], await this.documents.relations(manager, [document], ALL_DOCUMENT_EXPANSIONS));
        await this.events.record(manager, done.company_id, 'document.created', presented, document.updatedAt);
      }
      const dto = presentF24Request(done);
      await this.events.record(
        manager,
        done.company_id,
        done.status === 'PROCESSED' ? 'f24.processed' : 'f24.failed',
        { ...dto },
        done.processed_at ?? new Date(),
      );
    });
  }
}
