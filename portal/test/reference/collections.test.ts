import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_HOSTS } from "~/layout/site";
import { postmanCollection } from "~/reference/collections";
import { buildReferenceModel } from "~/reference/model";
import type { OpenApiDocument } from "~/reference/openapi";
import { pathVariable, SETTINGS } from "~/reference/postman-suite";

interface Request {
  name: string;
  event: Array<{ listen: string; script: { exec: string[] } }>;
  request: { method: string; url: { raw: string; variable: Array<{ key: string; value: string }> }; body?: { raw: string } };
}

/**
 * The collection as a suite (newman runs it against a live API in `npm run test:postman`); these check what can be
 * checked without one: every request tests its answer, and every variable it uses is set before it runs.
 */
describe("the Postman collection as a test suite", () => {
  const document = JSON.parse(
    readFileSync(fileURLToPath(new URL("../../openapi/openapi.json", import.meta.url)), "utf8"),
  ) as OpenApiDocument;
  const collection = postmanCollection(buildReferenceModel(document), DEFAULT_HOSTS, document);
  const requests = collection.item.flatMap((folder) => folder.item) as unknown as Request[];
  const script = (request: Request, listen: string) => request.event.find((e) => e.listen === listen)?.script.exec.join("\n") ?? "";

  it("tests the status and, for JSON answers, the schema of every request", () => {
    for (const request of requests) {
      const test = script(request, "test");
      expect(test).toMatch(/pm\.response\.to\.have\.status\(\d{3}\)/);
      if (test.includes("const schema")) expect(test).toContain("pm.response.to.have.jsonSchema(schema");
    }
    expect(requests.filter((r) => script(r, "test").includes("jsonSchema")).length).toBeGreaterThan(requests.length / 2);
  });

  it("uses no variable that the environment or an earlier request does not set", () => {
    const set = new Set(collection.variable.map((v) => v.key));
    for (const request of requests) {
      const pre = script(request, "prerequest");
      for (const [, name] of pre.matchAll(/collectionVariables\.set\("([^"]+)"/g)) set.add(name);
      const used = [request.request.url.raw, ...request.request.url.variable.map((v) => v.value), request.request.body?.raw ?? ""]
        .join(" ")
        .matchAll(/\{\{([^}]+)\}\}/g);
      for (const [, name] of used)
        expect(`${request.name}: ${set.has(name) ? name : `${name} (not set yet)`}`).toBe(`${request.name}: ${name}`);
      // What its test script keeps: the names it passes to collectionVariables.set.
      for (const line of script(request, "test")
        .split("\n")
        .filter((l) => l.includes("collectionVariables.set("))) {
        for (const [, name] of line.matchAll(/"([a-z0-9_]+)"/g)) set.add(name);
      }
    }
  });

  it("sends the JSON and the XML invoice with numbers of their own, new on every run", () => {
    const invoices = requests.filter((r) => r.request.url.raw.endsWith("/documents/invoice"));
    expect(invoices.map((r) => r.request.body?.raw.match(/\{\{(invoice_number\w*)\}\}/)?.[1])).toEqual([
      "invoice_number",
      "invoice_number_xml",
    ]);
    const first = script(requests[0], "prerequest");
    expect(first).toContain("Date.now()");
    expect(first).toContain('set("invoice_number", "PM-" + run + "-J")');
    expect(first).toContain('set("invoice_number_xml", "PM-" + run + "-X")');
  });

  it("starts a run by forgetting the ids a run before kept (the Postman app keeps them), but not the settings", () => {
    expect(collection.variable.map((v) => v.key)).toEqual(SETTINGS);
    expect(script(requests[0], "prerequest")).toContain("pm.collectionVariables.unset(name)");
  });

  it("creates before it reads, and deletes last", () => {
    const methods = requests.map((r) => r.request.method);
    const firstDelete = methods.indexOf("DELETE");
    expect(methods.slice(firstDelete).every((m) => m === "DELETE")).toBe(true);
    const created = requests.findIndex((r) => r.name === "Create a category");
    expect(created).toBeGreaterThan(-1);
    expect(created).toBeLessThan(requests.findIndex((r) => r.name === "Get a category"));
  });

  it("revokes the key it created and the key rolling it made, so a run leaves no key active", () => {
    const index = (name: string) => requests.findIndex((r) => r.name === name);
    const roll = requests[index("Roll an API key")];
    const revoke = requests[index("Revoke an API key")];
    expect(index("Roll an API key")).toBeLessThan(index("Revoke an API key"));
    expect(script(roll, "test")).toContain('pm.collectionVariables.set("rolled_api_key_id", body.id)');
    expect(script(revoke, "test")).toContain('replaceIn("{{baseUrl}}/api/v1/api-keys/{{rolled_api_key_id}}")');
    expect(script(revoke, "test")).toContain('method: "DELETE"');
  });

  it("names the id of a path after its collection", () => {
    expect(pathVariable("/api/v1/companies/{company_id}/payment-batches/{id}", "id")).toBe("payment_batch_id");
    expect(pathVariable("/api/v1/companies/{company_id}/categories/{id}", "id")).toBe("category_id");
    expect(pathVariable("/api/v1/companies/{company_id}/documents/{document_id}/flows/{id}", "document_id")).toBe("document_id");
  });
});
