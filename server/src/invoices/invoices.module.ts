import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { StoredInvoice } from './invoice.entity.js';
import { DocumentsModule } from '../documents/documents.module.js';
import { SectionalsModule } from '../sectionals/sectionals.module.js';
import { InvoiceFilesService } from './invoice-files.service.js';
import { InvoiceLane } from './invoice-lane.js';
import { InvoiceReader } from './invoice-reader.js';
import { InvoicesController } from './invoices.controller.js';
import { InvoicesRepository } from './invoices.repository.js';
import { InvoicesService } from './invoices.service.js';
import { XmlPoolModule } from './xml-pool.module.js';

/**
 * E-invoices through the API: create from FatturaPA XML or JSON, issue a draft, read back with a signed link. The
 * products JSON lines name come through the ProductCatalogue port, which ProductsModule provides.
 */
@Module({
  imports: [TypeOrmModule.forFeature([StoredInvoice]), DocumentsModule, SectionalsModule, XmlPoolModule],
  controllers: [InvoicesController],
  providers: [InvoicesService, InvoicesRepository, InvoiceReader, InvoiceFilesService, InvoiceLane],
  exports: [InvoicesService, InvoicesRepository, InvoiceLane],
})
export class InvoicesModule {}
