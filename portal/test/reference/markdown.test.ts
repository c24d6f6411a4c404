import { docMarkdown } from "../../app/llms/docMarkdown";
import { llmsTxt } from "../../app/llms/llmsTxt";
import { referenceMarkdown } from "../../app/llms/referenceMarkdown";
import { buildReferenceModel } from "../../app/reference/model";
import { readFileSync } from "node:fs";
import type { OpenApiDocument } from "../../app/reference/openapi";
import { fixtureDocument } from "./fixture";

const hosts = { development: "http://localhost:3000", production: "https://api.flusso.example" };

describe("docMarkdown", () => {
  it("puts the title and description first and fills the placeholders", () => {
    const markdown = docMarkdown(
      {
        title: "Errors",
        description: "What went wrong.",
        body: "Call `{{host}}/api/v1` (production: `{{host.production}}`) or write to {{email}}.\n",
      },
      { hosts, host: hosts.development, email: "developers@flusso.example" },
    );
    expect(markdown).toBe(
      "# Errors\n\n> What went wrong.\n\nCall `http://localhost:3000/api/v1` (production: `https://api.flusso.example`) or write to developers@flusso.example.\n",
    );
  });

  it("turns admonitions into quoted paragraphs", () => {
    const markdown = docMarkdown(
      { title: "T", body: ":::warning Keep it secret\nNever commit a key.\n:::\n" },
      { hosts, host: "h", email: "e" },
    );
    expect(markdown).toContain("> **Keep it secret**\n>\n> Never commit a key.");
    expect(markdown).not.toContain(":::");
  });
});

describe("llmsTxt", () => {
  it("follows the llmstxt.org layout: title, summary quote, details, link sections", () => {
    const text = llmsTxt({
      title: "Flusso Developers",
      summary: "The API docs.",
      details: "Bearer keys.",
      sections: [{ name: "Docs", links: [{ title: "Errors", url: "http://x/basics/errors.md", description: "Error codes." }] }],
    });
    expect(text).toBe(
      "# Flusso Developers\n\n> The API docs.\n\nBearer keys.\n\n## Docs\n\n- [Errors](http://x/basics/errors.md): Error codes.\n",
    );
  });
});

describe("referenceMarkdown", () => {
  const markdown = referenceMarkdown(buildReferenceModel(fixtureDocument()), "https://api.sandbox.flusso.example");

  it("has a section per tag and operation, with method, path and operationId", () => {
    expect(markdown).toMatch(/^# Flusso Integration API 1\.2\.0\n/);
    expect(markdown).toContain("## Reconciliations");
    expect(markdown).toContain(
      "### Create a reconciliation\n\n`POST /api/v1/companies/{company_id}/reconciliations` (operationId `createReconciliation`)",
    );
  });

  it("gives a body that takes several media types an example in each", () => {
    const published = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")) as OpenApiDocument;
    const text = referenceMarkdown(buildReferenceModel(published), "https://api.sandbox.flusso.example");
    const invoice = text.slice(text.indexOf("(operationId `createInvoice`)"), text.indexOf("(operationId `issueDocument`)"));
    expect(invoice).toContain("Request body (`application/json`, `application/xml` or `application/pkcs7-mime`, required)");
    // A signed file has no example the document could give: no request is made up for it.
    expect(invoice).not.toContain("Example (`application/pkcs7-mime`)");
    expect(invoice).toMatch(/Example \(`application\/json`\):\n\n```curl\n[^`]*--header 'Content-Type: application\/json'/);
    expect(invoice).toMatch(
      /Example \(`application\/xml`\):\n\n```curl\n[^`]*--header 'Content-Type: application\/xml' \\\n {2}--data '<\?xml/,
    );
  });

  it("lists parameters, list options, body, responses and a curl example", () => {
    expect(markdown).toContain("| `company_id` | path | string (uuid) | yes | The company's id. |");
    expect(markdown).toContain("Filters: `flow_id` (eq, in); `created_at` (gt, gte, lt, lte).");
    expect(markdown).toContain("Request body (`application/json`, required): [ReconciliationCreate](#reconciliationcreate).");
    expect(markdown).toContain("- `204` Deleted.");
    expect(markdown).toContain(
      "- `201` The reconciliation. — [Reconciliation](#reconciliation)\n  - header `x-request-id` (string, always): The request's id.\n  - header `idempotent-replayed` (string, sometimes): Present on a replayed answer.",
    );
    expect(markdown).toContain("```curl\ncurl --request DELETE \\\n  --url 'https://api.sandbox.flusso.example/api/v1/companies/");
  });

  it("describes a webhook as sent to the integrator, with its payload and an example of it instead of a curl", () => {
    const webhook = markdown.slice(markdown.indexOf("## Webhooks"), markdown.indexOf("## Schemas"));
    expect(webhook).toContain(
      "### document.updated\n\nWebhook: Flusso sends `POST` to the integrator's endpoint (operationId `documentUpdated`)",
    );
    expect(webhook).toContain("Request body (`application/json`, required): [DocumentUpdatedEvent](#documentupdatedevent).");
    expect(webhook).toContain("- `2XX` Received.");
    expect(webhook).toContain(
      'Example payload:\n\n```json\n{\n  "id": "3fa85f64-5717-4562-b3fc-2c963f66afa6",\n  "event": "document.updated",',
    );
    expect(webhook).not.toContain("curl");
  });

  it("describes each named schema once, members as nested bullets", () => {
    expect(markdown).toContain("### Money\n\n- `amount` (string, required): pattern");
    expect(markdown).toContain('- `status` (string): One of `"TO_PAY"`, `"PAID"`.');
    expect(markdown).toContain("- `address` (object)\n  - `street` (string)");
  });
});
