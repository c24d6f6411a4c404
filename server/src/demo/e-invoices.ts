import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { insertRows } from '../common/database/bulk-insert.js';
import { loadConfig } from '../config/config.js';
import { invoiceToXml, XmlPool, type Invoice } from '../invoices/fatturapa/index.js';
import { exampleInvoice } from '../invoices/invoice-example.js';
import { invoicesOutsideNest } from '../invoices/invoices-outside-nest.js';
import type { InvoicesService } from '../invoices/invoices.service.js';
import { InvoiceProductCatalogue } from '../products/invoice-catalogue.js';
import { ProductsRepository } from '../products/products.repository.js';
import { reconcileByIdentifier } from '../reconciliations/auto-reconcile.js';
import { addDays, atMinute } from './calendar.js';
import { COLUMNS } from './columns.js';

/**
 * The demo company's e-invoices: real FatturaPA files created through the same code as POST …/documents/invoice (the
 * XML stored, the document, counterpart and flows derived). Two stay drafts; the others are issued, with the buyer
 * codes of the SDI sandbox's triggers, so that a running worker takes them to every final status (DELIVERED,
 * NOT_DELIVERED, DISCARDED, REFUSED). One carries a reconciliation_identifier that a bank transfer of the demo quotes.
 */

interface DemoInvoice {
  days: number;
  code: string;
  format?: 'FPA12';
  issue: boolean;
  reconciliationIdentifier?: string;
}

const DEMO_INVOICES: DemoInvoice[] = [
  { days: 40, code: 'KRRH6B9', issue: true, reconciliationIdentifier: 'RF47FE0001' },
  { days: 35, code: 'KRRH6B9', issue: true },
  { days: 30, code: 'NODELIV', issue: true },
  { days: 25, code: 'DISCARD', issue: true },
  { days: 20, code: 'UFZB9P', format: 'FPA12', issue: true },
  { days: 15, code: 'REFUSE', format: 'FPA12', issue: true },
  { days: 12, code: 'NODELI', format: 'FPA12', issue: true },
  { days: 6, code: 'KRRH6B9', issue: false },
  { days: 2, code: 'KRRH6B9', issue: false },
];

const REGISTRY_ENTRIES = [
  {
    vat_number: 'IT09876543217',
    tax_number: '09876543217',
    company_name: 'Bianchi Costruzioni S.p.A.',
    address: 'Corso Francia 48',
    city: 'Torino',
    postal_code: '10138',
    province_code: 'TO',
    country: 'IT',
  },
  {
    vat_number: 'IT04567890126',
    tax_number: '80045670126',
    company_name: 'Comune di Borgo Esempio',
    address: 'Corso Francia 48',
    city: 'Torino',
    postal_code: '10138',
    province_code: 'TO',
    country: 'IT',
  },
];

function demoInvoice(vatNumber: string, today: string, index: number, spec: DemoInvoice): Invoice {
  const date = addDays(today, -spec.days);
  const invoice = exampleInvoice({
    sellerVat: vatNumber.replace(/^IT/, ''),
    number: `FE-${date.slice(0, 4)}/${String(index + 1).padStart(4, '0')}`,
    date,
    codiceDestinatario: spec.code,
  });
  invoice.fattura_elettronica_body[0].dati_pagamento![0].dettaglio_pagamento[0].data_scadenza_pagamento = addDays(date, 30);
  if (spec.format === 'FPA12') {
    invoice.versione = 'FPA12';
    invoice.fattura_elettronica_header.dati_trasmissione.formato_trasmissione = 'FPA12';
    invoice.fattura_elettronica_header.cessionario_committente.dati_anagrafici = {
      id_fiscale_iva: { id_paese: 'IT', id_codice: '04567890126' },
      codice_fiscale: '80045670126',
      anagrafica: { denominazione: 'Comune di Borgo Esempio' },
    };
  }
  return invoice;
}

export interface SeededEInvoices {
  count: number;
  /** The bank transfers that quote an invoice's reconciliation_identifier: reconciled once the seed has committed. */
  transactionIds: string[];
}

/** Creates the demo's e-invoices inside the demo's transaction. */
export async function seedEInvoices(
  manager: EntityManager,
  company: { id: string; vatNumber: string },
  accountId: string,
  today: string,
): Promise<SeededEInvoices> {
  const config = loadConfig();
  // The XML invoices go through the XML pool as the API's do; its child processes end with the seed.
  const xml = new XmlPool(config.invoices.xml);
  const db = manager.connection;
  const invoices = invoicesOutsideNest(db, xml, new InvoiceProductCatalogue(new ProductsRepository(db)));
  try {
    return await createEInvoices(invoices, manager, company, accountId, today);
  } finally {
    await xml.close();
  }
}

async function createEInvoices(
  invoices: InvoicesService,
  manager: EntityManager,
  company: { id: string; vatNumber: string },
  accountId: string,
  today: string,
): Promise<SeededEInvoices> {
  const transactionIds: string[] = [];
  // The data set (seedCompanyData) already made the company's ProgressivoInvio counter continue after its files.
  // The invoices' buyers are Italian companies the development counterpart search knows, like the data set's others.
  await insertRows(manager, 'registry_companies', COLUMNS.registry_companies, REGISTRY_ENTRIES, 'ON CONFLICT (vat_number) DO NOTHING');
  for (const [index, spec] of DEMO_INVOICES.entries()) {
    const invoice = demoInvoice(company.vatNumber, today, index, spec);
    // Every other one as XML, as most integrators send them; the rest as JSON.
    const body = index % 2 ? { kind: 'json' as const, value: invoice } : { kind: 'xml' as const, bytes: Buffer.from(invoiceToXml(invoice, { pretty: true })) };
    await invoices.create(company.id, body, { issue: spec.issue, reconciliationIdentifier: spec.reconciliationIdentifier ?? null }, manager);
    if (spec.reconciliationIdentifier) {
      const paidOn = addDays(invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento.data, 28);
      const id = randomUUID();
      transactionIds.push(id);
      await insertRows(manager, 'transactions', COLUMNS.transactions, [
        {
          id,
          company_id: company.id,
          account_id: accountId,
          type: 'CREDIT',
          amount: invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento.importo_totale_documento,
          currency: 'EUR',
          booking_date_time: atMinute(paidOn, 10 * 60),
          date: paidOn,
          value_date: paidOn,
          description: `BONIFICO SEPA DA BIANCHI COSTRUZIONI S.P.A. CAUS. ${spec.reconciliationIdentifier} SALDO FATTURA`,
          clean_description: 'Bonifico da Bianchi Costruzioni',
          counterpart_name: 'Bianchi Costruzioni S.p.A.',
          created_at: atMinute(paidOn, 10 * 60),
        },
      ]);
    }
  }
  return { count: DEMO_INVOICES.length, transactionIds };
}

/** After the seed has committed: the transfers that quote a reconciliation_identifier are reconciled with their invoice. */
export function reconcileSeededTransfers(dataSource: DataSource, companyId: string, seeded: SeededEInvoices): Promise<number> {
  return reconcileByIdentifier(dataSource, companyId, seeded.transactionIds);
}
