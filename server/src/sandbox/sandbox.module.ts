import { Module } from '@nestjs/common';
import { InvoicesModule } from '../invoices/invoices.module.js';
import { TransactionsModule } from '../transactions/transactions.module.js';
import { SandboxController } from './sandbox.controller.js';
import { SandboxService } from './sandbox.service.js';

/** The development environment's helpers: bank transactions and received e-invoices on demand (404 in production). */
@Module({
  imports: [InvoicesModule, TransactionsModule],
  controllers: [SandboxController],
  providers: [SandboxService],
})
export class SandboxModule {}
