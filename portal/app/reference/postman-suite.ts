import { type OpenApiDocument, type OperationObject, type ResponseObject, type SchemaOrRef, resolve } from "./openapi";
import type { OperationView } from "./model";

/**
 * What makes the Postman collection a test suite that runs against a development API from top to bottom, and again:
 * the order of the calls (each id an earlier answer gave is carried in a collection variable), the test of every
 * call (the status the document gives for success, the answer against its schema), values that must be new on every
 * run (invoice numbers, a partita IVA, product codes), and the calls that clean up what the run made.
 */

/** The calls in the order they run; an operation not named here runs after the named ones of its tag. */
const ORDER = [
  "listCompanies",
  "listAccounts",
  "getAccount",
  "createCategory",
  "getCategory",
  "updateCategory",
  "listCategories",
  "createSubcategory",
  "getSubcategory",
  "updateSubcategory",
  "listSubcategories",
  "createCounterpart",
  "getCounterpart",
  "updateCounterpart",
  "listCounterparts",
  "searchCounterparts",
  "createProduct",
  "getProduct",
  "updateProduct",
  "listProducts",
  "createSectional",
  "getSectional",
  "updateSectional",
  "listSectionals",
  "createWebhookEndpoint",
  "getWebhookEndpoint",
  "listWebhookEndpoints",
  "rotateWebhookSecret",
  "testWebhookEndpoint",
  "createInvoice",
  "listDocuments",
  "getDocument",
  "updateDocument",
  "issueDocument",
  "getInvoice",
  "getInvoiceFile",
  "shareInvoice",
  "listInvoiceShares",
  "getInvoiceShare",
  "listFlows",
  "getFlow",
  "updateFlow",
  "createFlow",
  "listTransactions",
  "getTransaction",
  "updateTransaction",
  "createReconciliation",
  "getReconciliation",
  "listReconciliations",
  "createBulkPayment",
  "listPaymentBatches",
  "getPaymentBatch",
  "getPaymentBatchFile",
  "createF24OcrRequest",
  "getF24Request",
  "getF24RequestFile",
  "listWebhookDeliveries",
  "replayWebhookEvent",
  "updateWebhookEndpoint",
  "deleteReconciliation",
  "deleteFlow",
  "deleteDocument",
  "deleteProduct",
  "deleteSubcategory",
  "deleteCategory",
  "deleteWebhookEndpoint",
];

export const CLEAN_UP = "Clean up";

/** Where a call runs: its place in ORDER, else after the named calls of its tag; deletes always last (Clean up). */
export function suiteOrder(operations: OperationView[]): Array<{ folder: string; operations: OperationView[] }> {
  const rank = (operation: OperationView) => {
    const known = ORDER.indexOf(operation.id);
    if (known >= 0) return known;
    const sameTag = operations.filter((o) => o.tag === operation.tag && ORDER.includes(o.id)).map((o) => ORDER.indexOf(o.id));
    return (sameTag.length ? Math.max(...sameTag) : ORDER.length) + 0.5;
  };
  const folder = (operation: OperationView) => (operation.method.toLowerCase() === "delete" ? CLEAN_UP : operation.tag);
  const sorted = [...operations].sort((a, b) => Number(folder(a) === CLEAN_UP) - Number(folder(b) === CLEAN_UP) || rank(a) - rank(b));
  const folders: Array<{ folder: string; operations: OperationView[] }> = [];
  for (const operation of sorted) {
    const last = folders.at(-1);
    if (last?.folder === folder(operation)) last.operations.push(operation);
    else folders.push({ folder: folder(operation), operations: [operation] });
  }
  return folders;
}

/** The variable of an id in a path: a named parameter keeps its name; `{id}` is named after its collection (`categories/{id}` → `category_id`). */
export function pathVariable(path: string, name: string): string {
  if (name !== "id") return name;
  const segments = path.split("/");
  return `${singular(segments[segments.indexOf("{id}") - 1] ?? "item")}_id`;
}

const singular = (segment: string) =>
  segment
    .replace(/-/g, "_")
    .replace(/ies$/, "y")
    .replace(/(ch|sh|ss|x)es$/, "$1")
    .replace(/s$/, "");

/** Path variables that differ from the rule: the document deleted at the end is the draft made from XML, which nothing else uses. */
const PATH_VARIABLES: Record<string, Record<string, string>> = { deleteDocument: { id: "draft_document_id" } };

export function pathVariableOf(operation: OperationView, name: string): string {
  return PATH_VARIABLES[operation.id]?.[name] ?? pathVariable(operation.path, name);
}

/** Query values of required parameters that an earlier answer gives. */
const QUERY_VALUES: Record<string, Record<string, string>> = {
  searchCounterparts: { vat_number: "{{registry_vat_number}}" },
  listTransactions: { "filter[type]": "CREDIT", expand: "reconciliations" },
  getInvoiceFile: { signature: "{{invoice_file_signature}}", expires: "{{invoice_file_expires}}" },
};

export const queryValue = (operation: OperationView, name: string): string | undefined => QUERY_VALUES[operation.id]?.[name];

/** The collection's variables that the user sets; every other one is the run's own. */
export const SETTINGS = ["baseUrl", "apiKey", "company_id", "webhookUrl"];

/**
 * The first call forgets what an earlier run kept, and makes the values a run must not share with an earlier one: a
 * run tag, two invoice numbers (the JSON and the XML invoice must not share one), a partita IVA with a valid check
 * digit for the counterpart, and a payment date the API takes.
 */
const RUN_VALUES = `// The Postman app keeps collection variables from one run to the next: ids of the last run are forgotten first.
for (const name of Object.keys(pm.collectionVariables.toObject())) {
  if (!${JSON.stringify(SETTINGS)}.includes(name)) pm.collectionVariables.unset(name);
}
const run = Date.now().toString(36).slice(-6).toUpperCase() + Math.floor(Math.random() * 36 ** 2).toString(36).toUpperCase();
const digits = Array.from({ length: 10 }, (_, i) => (i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10)));
const sum = digits.reduce((total, digit, i) => total + (i % 2 === 0 ? digit : digit * 2 > 9 ? digit * 2 - 9 : digit * 2), 0);
pm.collectionVariables.set("run", run);
// Tomorrow in UTC is today or later wherever the API counts days (Italy's today starts before UTC's).
pm.collectionVariables.set("execution_date", new Date(Date.now() + 86400000).toISOString().slice(0, 10));
pm.collectionVariables.set("invoice_number", "PM-" + run + "-J");
pm.collectionVariables.set("invoice_number_xml", "PM-" + run + "-X");
pm.collectionVariables.set("partita_iva", digits.join("") + ((10 - (sum % 10)) % 10));`;

/** Members of example bodies that must be new on every run (a second run would answer 409) or come from earlier calls. */
const BODY_VALUES: Record<string, Record<string, unknown>> = {
  createCategory: { name: "Vendite {{run}}" },
  updateCategory: { name: "Vendite Italia {{run}}" },
  createSubcategory: { name: "Materiali edili {{run}}" },
  updateSubcategory: { name: "Materiali edili e cementi {{run}}" },
  createCounterpart: { vat_number: "IT{{partita_iva}}", tax_number: "{{partita_iva}}" },
  createProduct: { code: "CEM-{{run}}" },
  createSectional: { prefix: "PM{{run}}/" },
  updateSectional: { prefix: "PM{{run}}E/" },
  // The invoice's own flow, made smaller by updateFlow, leaves room for this one.
  createFlow: { amount: { amount: "610.00", currency: "EUR" } },
  // Payments to a supplier without flows: the issued invoice's flows are money in, which a bulk payment does not pay.
  createBulkPayment: {
    requested_execution_date: "{{execution_date}}",
    payments: [
      {
        payee_name: "Cementeria Adriatica S.r.l.",
        iban: "IT58 X030 6909 6061 0000 0063 712",
        amount: { amount: "1220.00", currency: "EUR" },
        remittance_information: "Fattura 118/2026, prima rata",
        end_to_end_id: "PM-{{run}}",
      },
    ],
  },
  // A category of the company's own: the one the suite made must stay unused, to be deleted at the end.
  updateTransaction: { category_id: "{{transaction_category_id}}", subcategory_id: "{{transaction_subcategory_id}}" },
  createWebhookEndpoint: { url: "{{webhookUrl}}" },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The example body with the run's values and the ids of earlier calls in place of the example's. */
export function suiteBody(operation: OperationView, contentType: string, text: string): string {
  if (contentType.includes("xml")) return text.replace(/<Numero>[^<]*<\/Numero>/, "<Numero>{{invoice_number_xml}}</Numero>");
  if (!contentType.includes("json")) return text;
  const ids = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => ids(item, key?.endsWith("_ids") ? `${key.slice(0, -4)}_id` : undefined));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ids(v, k)]));
    if (key === "numero") return "{{invoice_number}}";
    return key?.endsWith("_id") && typeof value === "string" && UUID.test(value) ? `{{${key}}}` : value;
  };
  return JSON.stringify({ ...(ids(JSON.parse(text)) as object), ...BODY_VALUES[operation.id] }, null, 2);
}

/**
 * What a call keeps for later ones, as script lines with `body` the parsed answer. Creations (201) keep their id, lists
 * the first item's when no earlier call set one; a few keep more.
 */
const CAPTURES: Record<string, string> = {
  // The JSON invoice goes on to the SDI; the XML one stays a draft, deleted at the end.
  createInvoice: `const type = pm.request.headers.get("Content-Type");
if (type.includes("json")) pm.collectionVariables.set("document_id", body.data[0].id);
else if (type.includes("xml")) pm.collectionVariables.set("draft_document_id", body.data[0].id);`,
  getInvoice: `if (body.xml_url) {
  const query = Object.fromEntries(body.xml_url.split("?")[1].split("&").map((pair) => pair.split("=")));
  pm.collectionVariables.set("invoice_file_signature", decodeURIComponent(query.signature));
  pm.collectionVariables.set("invoice_file_expires", query.expires);
}`,
  listCounterparts: `const known = body.data.find((c) => c.id !== pm.collectionVariables.get("counterpart_id") && /^IT/.test(c.vat_number || ""));
if (known) pm.collectionVariables.set("registry_vat_number", known.vat_number);`,
  listSubcategories: `const other = body.data.find((s) => s.id !== pm.collectionVariables.get("subcategory_id"));
if (other) {
  pm.collectionVariables.set("transaction_category_id", other.category_id);
  pm.collectionVariables.set("transaction_subcategory_id", other.id);
}`,
  // An issued invoice's flow is money in: a credit pays it, and one not reconciled yet can take it.
  listTransactions: `const credit = body.data.find((t) => t.type === "CREDIT" && (t.reconciliations || []).length === 0);
if (credit) pm.collectionVariables.set("transaction_id", credit.id);`,
  listWebhookDeliveries: `if (body.data.length) pm.collectionVariables.set("event_id", body.data[0].event_id);`,
  createF24OcrRequest: `pm.collectionVariables.set("f24_id", body.data.request_id);`,
  // The new key a roll answers: the run's own too, revoked with the one it replaced (AGAIN).
  rollApiKey: `pm.collectionVariables.set("rolled_api_key_id", body.id);`,
};

/**
 * Calls the test script makes once more, for the id an earlier call kept in `variable`, so that a run leaves nothing
 * active behind it: the suite revokes the key it created and the key rolling it made.
 */
const AGAIN: Record<string, { variable: string; what: string }> = {
  revokeApiKey: { variable: "rolled_api_key_id", what: "the key rollApiKey made" },
};

function again(operation: OperationView, status: string): string | undefined {
  const repeat = AGAIN[operation.id];
  if (!repeat) return undefined;
  const path = operation.path.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => `{{${name === "id" ? repeat.variable : pathVariableOf(operation, name)}}}`,
  );
  return `pm.sendRequest(
  {
    url: pm.variables.replaceIn("{{baseUrl}}${path}"),
    method: "${operation.method.toUpperCase()}",
    header: { Authorization: "Bearer " + pm.variables.get("apiKey"), Accept: "application/json" },
  },
  (error, response) => pm.test("answers ${status} for ${repeat.what} too", () => pm.expect(error ? error.message : response.code).to.equal(${status})),
);`;
}

function capture(operation: OperationView, status: string): string | undefined {
  if (CAPTURES[operation.id]) return CAPTURES[operation.id];
  const segments = operation.path.split("/");
  const last = segments.at(-1) ?? "";
  if (last.startsWith("{")) return undefined;
  const variable = `${singular(last)}_id`;
  if (operation.method.toLowerCase() === "post" && status === "201")
    return `if (body.id) pm.collectionVariables.set("${variable}", body.id);`;
  if (operation.method.toLowerCase() === "get")
    return `if (!pm.collectionVariables.get("${variable}") && body.data && body.data.length) pm.collectionVariables.set("${variable}", body.data[0].id);`;
  return undefined;
}

/** JSON Schema (draft-07, which Postman's sandbox validates with) of an answer: its components as `definitions`. */
function draft07(document: OpenApiDocument, schema: SchemaOrRef): object {
  const definitions: Record<string, unknown> = {};
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (key === "$ref" && typeof value === "string") {
          const name = value.replace("#/components/schemas/", "");
          if (!(name in definitions)) {
            definitions[name] = {};
            definitions[name] = rewrite(document.components?.schemas?.[name]);
          }
          return [key, `#/definitions/${name}`];
        }
        return [key, rewrite(value)];
      }),
    );
  };
  const root = rewrite(schema) as object;
  return { ...root, definitions };
}

function operationObject(document: OpenApiDocument, id: string): OperationObject | undefined {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item ?? {})) {
      if (operation && typeof operation === "object" && (operation as OperationObject).operationId === id)
        return operation as OperationObject;
    }
  }
  return undefined;
}

/** The test script of a call: its status, its answer against the schema (or its media type), and what it keeps. */
export function suiteTests(operation: OperationView, document: OpenApiDocument): string[] {
  const status = operation.responses.find((r) => /^2\d\d$/.test(r.status))?.status ?? "200";
  const raw = operationObject(document, operation.id)?.responses?.[status];
  const response = raw ? resolve<ResponseObject>(document, raw) : undefined;
  const [contentType, media] = Object.entries(response?.content ?? {})[0] ?? [];
  const lines = [`pm.test("answers ${status}", () => pm.response.to.have.status(${status}));`];
  if (contentType && contentType.includes("json") && media?.schema) {
    lines.push(
      `const schema = ${JSON.stringify(draft07(document, media.schema))};`,
      `if (pm.response.code === ${status}) pm.test("the answer matches its schema", () => pm.response.to.have.jsonSchema(schema, { unknownFormats: "ignore" }));`,
    );
    const keep = capture(operation, status);
    if (keep) lines.push(`if (pm.response.code === ${status}) {`, `const body = pm.response.json();`, keep, `}`);
    const repeat = again(operation, status);
    if (repeat) lines.push(repeat);
  } else if (contentType) {
    lines.push(`pm.test("answers ${contentType}", () => pm.expect(pm.response.headers.get("Content-Type")).to.include("${contentType}"));`);
  }
  return lines.flatMap((line) => line.split("\n"));
}

/**
 * Calls that need what the worker does after an earlier call: the pre-request script asks again (every 250 ms, for
 * at most 20 s) until the answer shows it done. The SDI takes an issued invoice (CREATED → SENT) before it has a link
 * to its XML and can be shared; an update's event has a delivery before one can be sent again. `first` is a request sent
 * once before asking: the request log lists failed requests, so the suite makes one (a document that does not exist)
 * and waits for the API to have written it.
 */
const WAITS: Record<string, { ask: string; until: string; first?: { ask: string; values: Record<string, string> } }> = {
  getInvoice: { ask: "getDocument", until: `body.status !== "CREATED"` },
  listWebhookDeliveries: { ask: "listWebhookDeliveries", until: "body.data.length > 0" },
  listRequestLogs: {
    first: { ask: "getDocument", values: { id: "00000000-0000-4000-8000-000000000000" } },
    ask: "listRequestLogs",
    until: "body.data.length > 0",
  },
};

/** The pre-request script of a call: the run's values for the first one, the wait for those that need one. */
export function preRequestScript(operation: OperationView, operations: OperationView[], first: boolean): string[] {
  const wait = WAITS[operation.id];
  const asked = operations.find((o) => o.id === wait?.ask);
  const provoked = operations.find((o) => o.id === wait?.first?.ask);
  // A value for a name the path does not have would leave the real variable in place: a request that succeeds.
  for (const name of Object.keys(wait?.first?.values ?? {})) {
    if (provoked && !provoked.path.includes(`{${name}}`)) throw new Error(`${provoked.id}'s path ${provoked.path} has no {${name}}`);
  }
  const pathOf = (of: OperationView, values: Record<string, string> = {}) =>
    of.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? `{{${pathVariableOf(of, name)}}}`);
  const lines = [...(first ? [RUN_VALUES] : [])];
  if (wait && asked) {
    const path = pathOf(asked);
    const header = `{ Authorization: "Bearer " + pm.variables.get("apiKey"), Accept: "application/json" }`;
    lines.push(`const deadline = Date.now() + 20000;
const ask = () =>
  pm.sendRequest(
    { url: pm.variables.replaceIn("{{baseUrl}}${path}"), header: ${header} },
    (error, response) => {
      const body = error ? undefined : response.json();
      if (!(body && ${wait.until}) && Date.now() < deadline) setTimeout(ask, 250);
    },
  );
${provoked ? `pm.sendRequest({ url: pm.variables.replaceIn("{{baseUrl}}${pathOf(provoked, wait.first?.values)}"), header: ${header} }, () => ask());` : "ask();"}`);
  }
  return lines.flatMap((line) => line.split("\n"));
}
