// An integrator's program: the Client libraries page shows it whole, and a portal test generates the types from the
// OpenAPI document with openapi-typescript and compiles this file against them with `tsc --strict`.
import { randomUUID } from "node:crypto";
import createClient from "openapi-fetch";
import type { components, paths } from "./flusso-api.js";

type Document = components["schemas"]["Document"];
type DocumentList = components["schemas"]["DocumentList"];
type IntegrationError = components["schemas"]["IntegrationError"];

const flusso = createClient<paths>({
  baseUrl: process.env.FLUSSO_BASE_URL ?? "{{host}}/api/v1",
  headers: { Authorization: `Bearer ${process.env.FLUSSO_API_KEY}` },
  // sort, expand and filter[…__in] are lists, sent comma-separated: expand=flows,category.
  querySerializer: { array: { style: "form", explode: false } },
});

/** The error as a line to log: each problem's code (branch on it, never on the text) and detail. */
function describe(error: IntegrationError): string {
  return error.errors.map((item) => `${item.code}: ${item.detail ?? item.title}`).join("; ");
}

/** The company's issued invoices that reached the SDI, newest first, every page of them. */
async function* issuedInvoices(companyId: string): AsyncGenerator<Document> {
  let cursor: string | undefined;
  do {
    const { data, error, response } = await flusso.GET("/companies/{company_id}/documents", {
      params: {
        path: { company_id: companyId },
        query: {
          "filter[direction]": "ISSUED",
          "filter[status__in]": ["SENT", "DELIVERED"],
          sort: ["-creation_date"],
          expand: ["flows"],
          page_size: 100,
          cursor,
        },
      },
    });
    if (error) throw new Error(describe(error));
    const page: DocumentList = data;
    console.log(`${response.headers.get("x-ratelimit-remaining")} requests left in this window`);
    yield* page.data;
    cursor = page.page.cursor ?? undefined;
  } while (cursor);
}

/** Links a bank credit to the flow it pays; false when the transaction is already used up. Safe to retry. */
async function reconcile(companyId: string, flowId: string, transactionId: string): Promise<boolean> {
  const { data, error } = await flusso.POST("/companies/{company_id}/reconciliations", {
    params: { path: { company_id: companyId }, header: { "Idempotency-Key": randomUUID() } },
    body: { flow_id: flowId, transaction_id: transactionId },
  });
  if (error?.errors[0].code === "transaction_fully_reconciled") return false;
  if (error) throw new Error(describe(error));
  console.log(`flow ${data.flow_id}: ${data.flow?.payment_status}, ${data.flow?.paid_amount.amount} paid`);
  return true;
}

/** Forgets how an instalment will be paid: `null` clears the member. */
async function clearPaymentMethod(companyId: string, documentId: string, flowId: string): Promise<void> {
  const { error } = await flusso.PATCH("/companies/{company_id}/documents/{document_id}/flows/{id}", {
    params: { path: { company_id: companyId, document_id: documentId, id: flowId } },
    body: { payment_method: null },
  });
  if (error) throw new Error(describe(error));
}

const companyId = process.env.FLUSSO_COMPANY_ID;
if (!companyId) throw new Error("Set FLUSSO_COMPANY_ID to one of the companies GET /companies lists.");
const [command, ...ids] = process.argv.slice(2);
if (command === "reconcile") await reconcile(companyId, ids[0], ids[1]);
else if (command === "clear-method") await clearPaymentMethod(companyId, ids[0], ids[1]);
else {
  for await (const document of issuedInvoices(companyId)) {
    const open = (document.flows ?? []).filter((flow) => flow.payment_status === "TO_PAY");
    // Every document has a format; an unexpanded counterpart is null, its id is always there.
    console.log(document.number, document.format, document.gross_amount.amount, document.counterpart_id, `${open.length} to pay`);
  }
}
