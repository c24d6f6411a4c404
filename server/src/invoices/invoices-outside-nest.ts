import type { DataSource } from 'typeorm';
import { CategoriesRepository } from '../categories/categories.repository.js';
import { EventsService } from '../common/events/events.service.js';
import { DocumentsRepository } from '../documents/documents.repository.js';
import { DocumentsService } from '../documents/documents.service.js';
import { SectionalsService } from '../sectionals/sectionals.service.js';
import type { XmlPool } from './fatturapa/index.js';
import { InvoiceReader } from './invoice-reader.js';
import { InvoicesRepository } from './invoices.repository.js';
import { InvoicesService } from './invoices.service.js';
import type { ProductCatalogue } from './product-catalogue.js';

/**
 * InvoicesService wired as InvoicesModule wires it, for callers outside Nest (the operator CLI, the demo), with the
 * product catalogue they name (products/ stands above invoices/).
 */
export function invoicesOutsideNest(db: DataSource, xml: XmlPool, catalogue: ProductCatalogue): InvoicesService {
  const sectionals = new SectionalsService(db);
  const documentRows = new DocumentsRepository(db);
  const documents = new DocumentsService(db, documentRows, new CategoriesRepository(db), new EventsService(), sectionals);
  return new InvoicesService(db, new InvoicesRepository(db), new InvoiceReader(xml, catalogue), documentRows, documents, sectionals);
}
