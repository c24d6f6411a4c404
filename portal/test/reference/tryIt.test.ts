import { readFileSync } from "node:fs";
import { buildReferenceModel } from "../../app/reference/model";
import type { OpenApiDocument } from "../../app/reference/openapi";
import { initialInput, requestExample, withCompany } from "../../app/reference/tryIt";
import { diagnoseFailure, extraQueryExample, failureMessage } from "../../app/reference/tryItSend";
import { fixtureDocument } from "./fixture";

/** The generated document the portal is built with: every list the API has. */
const published = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")) as OpenApiDocument;

describe("extraQueryExample", () => {
  const lists = buildReferenceModel(published)
    .tags.flatMap((tag) => tag.operations)
    .filter((operation) => operation.list && operation.list.filters.length > 0);

  it.each(lists.map((operation) => [operation.id, operation.list!] as const))("%s: a field and operator the list declares", (_id, list) => {
    const example = extraQueryExample(list)!;
    const [, field, operator, value] = /^filter\[(\w+?)__(\w+)\]=(.+)$/.exec(example)!;
    expect(list.filters.find((filter) => filter.field === field)?.operators).toContain(operator);
    if (operator === "gte") expect(value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("prefers a date bound, then a name search", () => {
    expect(extraQueryExample({ filters: [{ field: "creation_date", operators: ["gte"] }], sorts: [], expansions: [] })).toBe(
      "filter[creation_date__gte]=2026-01-01",
    );
    expect(extraQueryExample({ filters: [{ field: "company_name", operators: ["eq", "ilike"] }], sorts: [], expansions: [] })).toBe(
      "filter[company_name__ilike]=bianchi",
    );
    expect(extraQueryExample({ filters: [{ field: "status", operators: ["eq"] }], sorts: [], expansions: [] })).toBeUndefined();
  });
});

describe("requestExample", () => {
  const operation = buildReferenceModel(fixtureDocument())
    .tags.flatMap((tag) => tag.operations)
    .find((o) => o.id === "createReconciliation")!;

  it("is the panel's request: remembered company, typed query and body", () => {
    const input = withCompany({ ...initialInput(operation), body: '{"flow_id": "f"}' }, "c-1");
    expect(requestExample(operation, input)).toEqual({
      method: "POST",
      path: "/api/v1/companies/c-1/reconciliations",
      query: [],
      contentType: "application/json",
      body: { flow_id: "f" },
    });
  });

  it("offers the list's sort and expand as comma-separated fields; its filters go in the other parameters", () => {
    const list = buildReferenceModel(fixtureDocument())
      .tags.flatMap((tag) => tag.operations)
      .find((o) => o.id === "listReconciliations")!;
    const input = initialInput(list);
    expect(Object.keys(input.query)).toEqual(["page_size", "cursor", "sort", "expand"]);
    expect(requestExample(list, { ...input, query: { ...input.query, expand: "flow,transaction" } }).query).toEqual([
      ["expand", "flow,transaction"],
    ]);
  });

  it("keeps the example body while the typed one is not JSON yet", () => {
    expect(requestExample(operation, { ...initialInput(operation), body: '{"flow_id": ' }).body).toEqual(operation.example.body);
  });
});

describe("diagnoseFailure", () => {
  const reachable = (async () => new Response(null)) as unknown as typeof fetch;
  const unreachable = (async () => {
    throw new TypeError("Failed to fetch");
  }) as unknown as typeof fetch;

  it("names mixed content, offline, CORS and network failures", async () => {
    expect(await diagnoseFailure("http://api.example/x", "https://portal.example/", true, reachable)).toBe("mixed-content");
    // Browsers let a secure page call its own machine over HTTP.
    expect(await diagnoseFailure("http://localhost:3000/x", "https://portal.example/", true, unreachable)).toBe("network");
    expect(await diagnoseFailure("https://api.example/x", "https://portal.example/", false, reachable)).toBe("offline");
    expect(await diagnoseFailure("https://api.example/x", "https://portal.example/", true, reachable)).toBe("cors");
    expect(await diagnoseFailure("https://api.example/x", "https://portal.example/", true, unreachable)).toBe("network");
    expect(await diagnoseFailure("not a url", "https://portal.example/", true, reachable)).toBe("network");
  });

  it("says why in words, with the host and the method", () => {
    expect(failureMessage("cors", "https://api.example/api/v1/x", "PATCH", "https://portal.example")).toContain(
      "non consente richieste PATCH da questa origine (https://portal.example)",
    );
    expect(failureMessage("network", "https://api.example/api/v1/x", "GET", "o")).toContain("Impossibile raggiungere https://api.example");
    expect(failureMessage("mixed-content", "http://api.example/x", "GET", "o")).toContain("contenuto misto");
  });
});
