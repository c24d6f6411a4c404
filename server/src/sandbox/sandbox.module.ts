import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module.js';
import { DocumentsModule } from '../documents/documents.module.js';
import { InvoicesModule } from '../invoices/invoices.module.js';
import { SdiNotifications } from '../invoices/sdi/sdi-notifications.js';
import { SdiRepository } from '../invoices/sdi/sdi.repository.js';
import { XmlPoolModule } from '../invoices/xml-pool.module.js';
import { TransactionsModule } from '../transactions/transactions.module.js';
import { SandboxController } from './sandbox.controller.js';
import { SandboxRepository } from './sandbox.repository.js';
import { SandboxService } from './sandbox.service.js';

/** The development environment's helpers: bank transactions and received e-invoices on demand, the SDI sandbox's notices at once (404 in production). */
@Module({
  imports: [AccountsModule, DocumentsModule, InvoicesModule, TransactionsModule, XmlPoolModule],
  controllers: [SandboxController],
  providers: [SandboxService, SandboxRepository, SdiNotifications, SdiRepository],
})
export class SandboxModule {}
