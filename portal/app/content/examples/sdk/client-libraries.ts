// The TypeScript SDK, a feature at a time; the Client libraries page shows this file, and Flusso's tests compile it
// against the SDK with `tsc --strict`.
import { createServer } from "node:http";
import { Flusso, FlussoError, verifyWebhook, WebhookVerificationError } from "@flusso/sdk";

// A client: the key, and the API's root (the development host when left out). Retries are on by default.
const flusso = new Flusso({
  apiKey: process.env.FLUSSO_API_KEY ?? "",
  baseUrl: process.env.FLUSSO_BASE_URL ?? "{{host}}/api/v1",
  maxRetries: 3, // after the first attempt, on 429, 503 and 409 idempotency_key_in_progress
  maxDelayMs: 30_000, // a Retry-After longer than this is not waited for: the error is thrown
  onRetry: (event) =>
    console.warn(`retry ${event.attempt} of ${event.method} ${event.url} in ${event.delayMs} ms (${event.status ?? event.error})`),
});
const companyId = process.env.FLUSSO_COMPANY_ID ?? "";

/** Typed methods, named by operationId: the path's ids first, then the query or the body. */
export async function methods(): Promise<void> {
  const category = await flusso.createCategory(companyId, { name: "Utenze" });
  const renamed = await flusso.updateCategory(companyId, category.id, { name: "Utenze e canoni" });
  console.log(renamed.name);
}

/** Lists: `await` for one page, `for await` for every item of every page (the cursor is followed for you). */
export async function lists(): Promise<void> {
  const page = await flusso.listDocuments(companyId, { page_size: 10 });
  console.log(`${page.data.length} documents, next page: ${page.page.cursor ?? "none"}`);
  // List parameters go comma-separated, as the API reads them: filter[status__in]=SENT,DELIVERED&expand=flows
  for await (const document of flusso.listDocuments(companyId, {
    "filter[status__in]": ["SENT", "DELIVERED"],
    expand: ["flows"],
    sort: ["-creation_date"],
  })) {
    console.log(document.number, document.flows?.length);
  }
  for await (const page of flusso.listTransactions(companyId, { "filter[type]": "CREDIT", page_size: 100 }).pages()) {
    console.log(`a page of ${page.data.length} credits`);
  }
}

/** A POST is safe to retry: give your own Idempotency-Key to make a retry of yours (after a crash) safe too. */
export async function idempotency(flowId: string, transactionId: string, key: string): Promise<void> {
  await flusso.createReconciliation(companyId, { flow_id: flowId, transaction_id: transactionId }, { idempotencyKey: key });
}

/** Errors are FlussoError: the status, the first problem's code, every problem, and the request id for support. */
export async function errors(flowId: string, transactionId: string): Promise<void> {
  try {
    await flusso.createReconciliation(companyId, { flow_id: flowId, transaction_id: transactionId });
  } catch (error) {
    if (error instanceof FlussoError && error.code === "transaction_fully_reconciled") return;
    if (error instanceof FlussoError) console.error(`${error.status} ${error.code} (request ${error.requestId}): ${error.message}`);
    throw error;
  }
}

/** Webhooks: verify the raw body with the endpoint's secret (`whsec_…`) before trusting it; 400 when it fails. */
export function webhookReceiver(secret: string) {
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        const event = verifyWebhook(Buffer.concat(chunks), request.headers, secret); // 5 minutes of tolerance
        if (event.event === "document.updated") console.log(`document ${event.data.id} changed`);
        response.writeHead(204).end();
      } catch (error) {
        response.writeHead(error instanceof WebhookVerificationError ? 400 : 500).end();
      }
    });
  });
}
