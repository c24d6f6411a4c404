import { readFileSync } from "node:fs";
import { buildReferenceModel, apiBasePath, exampleAs, exampleMediaTypes } from "../../app/reference/model";
import type { OpenApiDocument } from "../../app/reference/openapi";
import { typeLabel, type ObjectNode } from "../../app/reference/schema";
import { fixtureDocument } from "./fixture";

const document = fixtureDocument();
const model = buildReferenceModel(document);
const operations = model.tags.flatMap((tag) => tag.operations);
const operation = (id: string) => operations.find((o) => o.id === id)!;

describe("buildReferenceModel", () => {
  it("lists every operation of the document once, grouped by its first tag in document order", () => {
    expect(model.tags.map((t) => t.name)).toEqual(["Companies", "Reconciliations", "Counterparts", "Webhooks"]);
    expect(operations.map((o) => o.id).sort()).toEqual(
      [
        "createReconciliation",
        "deleteReconciliation",
        "documentUpdated",
        "listCompanies",
        "listReconciliations",
        "searchCounterparts",
      ].sort(),
    );
  });

  it("reads the permission an operation needs from x-permission", () => {
    expect(operation("createReconciliation").permission).toBe("reconciliations:write");
    expect(operation("listCompanies").permission).toBe("companies:read");
    expect(operation("deleteReconciliation").permission).toBeUndefined();
  });

  it("prefixes paths with the base path of the server URL", () => {
    expect(apiBasePath(document)).toBe("/api/v1");
    expect(operation("listCompanies")).toMatchObject({ method: "GET", path: "/api/v1/companies" });
  });

  it("does not add the base path twice when paths already carry it", () => {
    const prefixed = { ...document, paths: { "/api/v1/companies": document.paths["/companies"] } };
    expect(apiBasePath(prefixed)).toBe("");
  });

  it("merges path-level parameters, resolves $ref parameters and keeps header parameters", () => {
    const list = operation("listReconciliations");
    expect(list.parameters.map((p) => `${p.in}:${p.name}`)).toEqual([
      "path:company_id",
      "query:page_size",
      "query:cursor",
      "query:sort",
      "query:expand",
      "header:X-Request-Id",
    ]);
    expect(list.parameters[0]).toMatchObject({ required: true, example: "5b0c6f0e-1f9e-4d2a-9f5e-2b7c8d9e0a1b" });
  });

  it("reads the allowed filter, sort and expand fields from x-flusso-list", () => {
    expect(operation("listReconciliations").list).toEqual({
      filters: [
        { field: "flow_id", operators: ["eq", "in"] },
        { field: "created_at", operators: ["gt", "gte", "lt", "lte"] },
      ],
      sorts: ["created_at"],
      expansions: ["flow", "transaction"],
      defaultSort: "-created_at",
    });
    expect(operation("deleteReconciliation").list).toBeUndefined();
    // The filter[…] parameters (one per field and operator) are shown as these options, not one by one.
    expect(operation("listReconciliations").parameters.filter((p) => p.name.startsWith("filter["))).toEqual([]);
    // sort and expand are lists of their allowed values, written comma-separated.
    const sort = operation("listReconciliations").parameters.find((p) => p.name === "sort")!;
    expect(sort).toMatchObject({
      example: "-created_at",
      schema: { kind: "array", items: { kind: "scalar", enum: ["created_at", "-created_at"] } },
    });
  });

  it("builds an example request with path parameter examples, required query parameters and a body", () => {
    expect(operation("deleteReconciliation").example).toEqual({
      method: "DELETE",
      path: "/api/v1/companies/5b0c6f0e-1f9e-4d2a-9f5e-2b7c8d9e0a1b/reconciliations/3fa85f64-5717-4562-b3fc-2c963f66afa6",
      query: [],
    });
    expect(operation("searchCounterparts").example.query).toEqual([["vat_number", "IT01234567890"]]);
    expect(operation("createReconciliation").example).toMatchObject({
      contentType: "application/json",
      body: { flow_id: "3fa85f64-5717-4562-b3fc-2c963f66afa6", transaction_id: "3fa85f64-5717-4562-b3fc-2c963f66afa6" },
    });
  });

  it("keeps named schemas as references and describes the request body", () => {
    expect(operation("createReconciliation").requestBody).toEqual({
      contentType: "application/json",
      required: true,
      schema: { kind: "ref", name: "ReconciliationCreate" },
    });
    const create = model.schemas.ReconciliationCreate as ObjectNode;
    expect(create.properties.map((p) => [p.name, p.required, typeLabel(p.schema)])).toEqual([
      ["flow_id", true, "string (uuid)"],
      ["transaction_id", true, "string (uuid)"],
      ["note", false, "string | null"],
    ]);
    expect(create.properties[2].schema.constraints).toEqual(["≤ 200 characters"]);
  });

  it("keeps each media type of a body with its own example; the first is the example request's", () => {
    const published = buildReferenceModel(
      JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")) as OpenApiDocument,
    );
    const create = published.tags.flatMap((tag) => tag.operations).find((o) => o.id === "createInvoice")!;
    expect(create.requestBody!.mediaTypes!.map((media) => media.contentType)).toEqual([
      "application/json",
      "application/xml",
      "application/pkcs7-mime",
    ]);
    expect(exampleMediaTypes(create)).toEqual(["application/json", "application/xml"]);
    expect(create.example).toMatchObject({ contentType: "application/json", body: { versione: "FPR12" } });
    expect(exampleAs(create, "application/json")).toBe(create.example);
    const xml = exampleAs(create, "application/xml");
    expect(xml).toMatchObject({ method: "POST", path: create.example.path, contentType: "application/xml" });
    expect(xml.body).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<p:FatturaElettronica [^>]*versione="FPR12">/);
    expect(operation("createReconciliation").requestBody!.mediaTypes).toBeUndefined();
  });

  it("merges allOf objects, and reads nullable, oneOf, enums and recursive references", () => {
    const reconciliation = model.schemas.Reconciliation as ObjectNode;
    expect(reconciliation.kind).toBe("object");
    expect(reconciliation.properties.map((p) => p.name)).toEqual(["flow_id", "transaction_id", "note", "id", "created_at", "flow"]);
    expect(reconciliation.properties.find((p) => p.name === "flow")!.schema).toEqual({ kind: "ref", name: "Flow", nullable: true });

    const flow = model.schemas.Flow as ObjectNode;
    const property = (name: string) => flow.properties.find((p) => p.name === name)!.schema;
    expect(property("status")).toMatchObject({ kind: "scalar", enum: ["TO_PAY", "PAID"] });
    expect(property("payment_method")).toMatchObject({ kind: "scalar", type: "string", enum: ["CASH", "TRANSFER"], nullable: true });
    expect(typeLabel(property("payment_method"))).toBe("string | null");
    expect(property("percent").constraints).toEqual(["≤ 100", "> 0"]);
    expect(typeLabel(property("payment_date"))).toBe("string (date) | null");
    expect(typeLabel(property("counterpart"))).toBe("Party | string");
    expect(property("parent")).toEqual({ kind: "ref", name: "Flow" });
  });

  it("lists every response with its schema and an example", () => {
    const create = operation("createReconciliation");
    expect(create.responses.map((r) => r.status)).toEqual(["201", "422"]);
    expect(create.responses[0].example).toMatchObject({ id: "8d0f7c8e-55a3-4b58-9a4b-5c4b1e6a8d11" });
    expect(create.responses[1]).toMatchObject({ description: "Invalid value.", schema: { kind: "ref", name: "ErrorBody" } });
    expect(create.responses[1].example).toEqual({ errors: [{ code: "bad_request", title: "string" }] });
    expect(operation("deleteReconciliation").responses).toEqual([{ status: "204", description: "Deleted." }]);
    expect(create.responses[0].headers).toEqual([
      {
        name: "x-request-id",
        required: true,
        description: "The request's id.",
        schema: { kind: "scalar", type: "string", constraints: ["pattern ^[A-Za-z0-9-]{1,128}$"] },
      },
      {
        name: "idempotent-replayed",
        required: false,
        description: "Present on a replayed answer.",
        schema: { kind: "scalar", type: "string", enum: ["true"] },
      },
    ]);
  });

  it("reads webhooks from the webhooks map, after the operations, with their payload and an example of it", () => {
    expect(model.tags.at(-1)!.operations).toEqual([operation("documentUpdated")]);
    const webhook = operation("documentUpdated");
    expect(webhook).toMatchObject({
      method: "POST",
      path: "documentUpdated",
      webhook: true,
      summary: "document.updated",
      requestBody: { contentType: "application/json", required: true, schema: { kind: "ref", name: "DocumentUpdatedEvent" } },
      responses: [{ status: "2XX", description: "Received." }],
    });
    expect(webhook.example.body).toEqual({
      id: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
      event: "document.updated",
      data: { id: "3fa85f64-5717-4562-b3fc-2c963f66afa6", number: "FT-2026-001" },
    });
    expect(operation("listCompanies").webhook).toBeUndefined();
  });

  it("renders descriptions with the given Markdown renderer", () => {
    const html = buildReferenceModel(document, (text) => `<p>${text}</p>`);
    const list = html.tags[1].operations[0];
    expect(list.description).toBe("<p>Lists the links between flows and transactions.</p>");
    expect(list.parameters.find((p) => p.name === "sort")!.description).toBe("<p>Sort fields: `created_at`.</p>");
  });
});

describe("buildReferenceModel on the generated document (OpenAPI 3.1)", () => {
  const generated = buildReferenceModel(JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")));
  const member = (schema: string, name: string) =>
    (generated.schemas[schema] as ObjectNode).properties.find((p) => p.name === name)!.schema;

  it("shows an unexpanded member as its schema or null, with its description", () => {
    expect(member("Document", "counterpart")).toMatchObject({
      kind: "ref",
      name: "Counterpart",
      nullable: true,
      description: expect.any(String),
    });
    expect(typeLabel(member("Account", "current_balance"))).toBe("Money | null");
    expect(typeLabel(member("Document", "delivery_date"))).toBe("string (date-time) | null");
  });

  it("shows a nullable enum's values without null, and null in its type", () => {
    const method = member("FlowUpdatePayload", "payment_method");
    expect(typeLabel(method)).toBe("string | null");
    expect(method.enum).toContain("TRANSFER");
    expect(method.enum).not.toContain(null);
  });

  it("reads the webhooks map, after the operations", () => {
    const webhooks = generated.tags.flatMap((tag) => tag.operations).filter((o) => o.webhook);
    expect(webhooks.map((o) => o.id)).toEqual([
      "documentCreated",
      "documentUpdated",
      "documentDeleted",
      "transactionCreated",
      "reconciliationCreated",
      "reconciliationDeleted",
      "f24Processed",
      "f24Failed",
      "webhookTest",
    ]);
    expect(webhooks[1].requestBody?.schema).toEqual({ kind: "ref", name: "DocumentUpdatedEvent" });
  });
});
