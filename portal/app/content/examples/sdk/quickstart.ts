// The step-by-step quickstart with the TypeScript SDK: find the company, an unpaid invoice and the transfer that pays
// it, reconcile them, see the instalment become PAID, and undo it. Run it with FLUSSO_API_KEY set:
// `npx tsx quickstart.ts`. Flusso's tests run this very file against a live API.
import { Flusso } from "@flusso/sdk";

const flusso = new Flusso({
  apiKey: process.env.FLUSSO_API_KEY ?? "",
  baseUrl: process.env.FLUSSO_BASE_URL ?? "{{host}}/api/v1",
});

// Step 1: the company (the demo key sees one).
const [company] = (await flusso.listCompanies()).data;
console.log(`1. company ${company.name} (${company.id})`);

// Step 2: its bank accounts, every page of them.
for await (const account of flusso.listAccounts(company.id))
  console.log(`2. account ${account.nickname}: ${account.current_balance?.amount}`);

// Step 3: the invoices issued to Ferramenta Bianchi that reached the SDI, newest first, with their instalments.
const invoices = flusso.listDocuments(company.id, {
  "filter[direction]": "ISSUED",
  "filter[type]": "INVOICE",
  "filter[status__in]": ["SENT", "DELIVERED"],
  "filter[counterpart_company_name__ilike]": "bianchi",
  sort: ["-creation_date"],
  expand: ["flows"],
});
let flow;
for await (const invoice of invoices) {
  flow = invoice.flows?.find((candidate) => candidate.payment_status === "TO_PAY");
  if (flow) {
    console.log(`3. invoice ${invoice.number}: ${flow.amount.amount} ${flow.amount.currency} to pay (flow ${flow.id})`);
    break;
  }
}
if (!flow) throw new Error("No unpaid invoice to Ferramenta Bianchi: is this a demo company?");

// Step 4: the credit of the same amount from Bianchi that no reconciliation uses yet.
let payment;
for await (const transaction of flusso.listTransactions(company.id, {
  "filter[type]": "CREDIT",
  "filter[counterpart_name__ilike]": "bianchi",
  "filter[amount]": flow.amount.amount,
  expand: ["reconciliations"],
})) {
  if (transaction.reconciliations?.length === 0) {
    payment = transaction;
    break;
  }
}
if (!payment) throw new Error(`No unreconciled credit of ${flow.amount.amount} from Bianchi.`);
console.log(`4. transfer of ${payment.date}: ${payment.amount.amount} (transaction ${payment.id})`);

// Step 5: the reconciliation. The SDK sends an Idempotency-Key and keeps it for its retries: it is never made twice.
const reconciliation = await flusso.createReconciliation(company.id, { flow_id: flow.id, transaction_id: payment.id });
console.log(`5. reconciliation ${reconciliation.id}`);

// Step 6: the instalment is paid.
const paid = await flusso.getFlow(company.id, flow.document_id, flow.id);
console.log(`6. flow ${paid.id}: ${paid.payment_status}, ${paid.paid_amount?.amount} paid`);

// Step 7: undo it.
await flusso.deleteReconciliation(company.id, reconciliation.id);
console.log(`7. reconciliation deleted; the flow is ${(await flusso.getFlow(company.id, flow.document_id, flow.id)).payment_status} again`);
