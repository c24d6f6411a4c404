import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";

/**
 * What the Client libraries page promises: types generated from the OpenAPI document by openapi-typescript make the
 * page's integrator program compile under `tsc --strict` with openapi-fetch, and a misspelt value does not.
 */
const portal = fileURLToPath(new URL("../..", import.meta.url));
const program = join(portal, "app/content/examples/integrator.ts");

/** `tsc --strict --noEmit` on one file, as an integrator's ESM project on Node would; its diagnostics as text. */
function typeErrors(file: string): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ["node"],
  };
  const built = ts.createProgram([file], options);
  return ts.getPreEmitDiagnostics(built).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("a client generated from the OpenAPI document", () => {
  // Inside the portal (whose package.json says ESM) so that openapi-fetch and @types/node resolve as in a project.
  mkdirSync(join(portal, ".cache"), { recursive: true });
  const directory = mkdtempSync(join(portal, ".cache/client-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  beforeAll(async () => {
    const document = JSON.parse(readFileSync(join(portal, "openapi/openapi.json"), "utf8"));
    writeFileSync(join(directory, "flusso-api.d.ts"), astToString(await openapiTS(document)));
    copyFileSync(program, join(directory, "integrator.ts"));
  }, 60_000);

  it("compiles the integrator program of the Client libraries page under tsc --strict", () => {
    expect(typeErrors(join(directory, "integrator.ts"))).toEqual([]);
  });

  it("refuses a sort field, a filter value and a body member the document does not have", () => {
    const source = readFileSync(program, "utf8");
    const typos = source
      .replace('sort: ["-creation_date"]', 'sort: ["-creation_dat"]')
      .replace('"filter[status__in]": ["SENT", "DELIVERED"]', '"filter[status__in]": ["SENT", "PAYED"]')
      .replace("body: { payment_method: null }", 'body: { payment_method: "BITCOIN" }');
    writeFileSync(join(directory, "typos.ts"), typos);
    const errors = typeErrors(join(directory, "typos.ts")).join("\n");
    for (const typo of ["-creation_dat", "PAYED", "BITCOIN"]) expect(errors).toContain(`"${typo}"`);
  });
});
