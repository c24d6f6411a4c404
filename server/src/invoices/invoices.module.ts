import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { StoredInvoice } from './invoice.entity.js';
import { DocumentsModule } from '../documents/documents.module.js';
import { SectionalsModule } from '../sectionals/sectionals.module.js';
import { InvoicesController } from './invoices.controller.js';
import { InvoicesService } from './invoices.service.js';
import { XmlPoolModule } from './xml-pool.module.js';

/** E-invoices through the API: create from FatturaPA XML or JSON, issue a draft, read back with a signed link. */
@Module({
  imports: [TypeOrmModule.forFeature([StoredInvoice]), DocumentsModule, SectionalsModule, XmlPoolModule],
  controllers: [InvoicesController],
  providers: [InvoicesService],
  exports: [InvoicesService],
})
export class InvoicesModule {}
