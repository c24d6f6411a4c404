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

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  parameters?: Array<Schema>;
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
}

/** What a `$ref` of the document points at. */
function resolve(document: Schema, ref: string): Schema {
  return ref
    .slice(2)
    .split("/")
    .reduce<Schema>((node, token) => node[token.replace(/~1/g, "/").replace(/~0/g, "~")] as Schema, document);
}

/** The smallest value a schema takes, as a TypeScript client would write it: required members only, no optional one. */
function minimal(document: Schema, schema: Schema, depth = 0): unknown {
  if (depth > 40) throw new Error("A request body that requires itself");
  if (typeof schema.$ref === "string") return minimal(document, resolve(document, schema.$ref), depth + 1);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (variants) return minimal(document, variants.find((variant) => variant.type !== "null") ?? variants[0], depth + 1);
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...(schema.allOf as Schema[]).map((part) => minimal(document, part, depth + 1) as object));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "string") return "x";
  if (type === "integer" || type === "number") return (schema.minimum as number | undefined) ?? 1;
  if (type === "boolean") return true;
  if (type === "array")
    return Array.from({ length: (schema.minItems as number | undefined) ?? 0 }, () => minimal(document, schema.items as Schema, depth + 1));
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  return Object.fromEntries(((schema.required ?? []) as string[]).map((name) => [name, minimal(document, properties[name], depth + 1)]));
}

/**
 * A program that calls every operation of the document with openapi-fetch, giving only what the document requires:
 * the path parameters, the required query parameters and headers, and a body of its required members.
 */
function everyOperation(document: Schema): string {
  const lines = [
    'import createClient from "openapi-fetch";',
    'import type { paths } from "./flusso-api.js";',
    "",
    'const flusso = createClient<paths>({ baseUrl: "https://api.sandbox.flusso.example/api/v1" });',
    "",
    "export async function callEveryOperation(): Promise<void> {",
  ];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation?.operationId) continue;
      const params: Record<string, Record<string, unknown>> = {};
      for (const declared of operation.parameters ?? []) {
        const parameter = typeof declared.$ref === "string" ? resolve(document, declared.$ref) : declared;
        if (!parameter.required) continue;
        params[parameter.in as string] ??= {};
        params[parameter.in as string][parameter.name as string] = minimal(document, parameter.schema as Schema);
      }
      const init: Record<string, unknown> = {};
      if (Object.keys(params).length) init.params = params;
      // The JSON body when there is one, else the body of the first media type (a file, such as an invoice's XML).
      const content = operation.requestBody?.content ?? {};
      const media = content["application/json"] ?? Object.values(content)[0];
      if (media && operation.requestBody?.required) init.body = minimal(document, media.schema);
      const argument = Object.keys(init).length ? `, ${JSON.stringify(init)}` : "";
      lines.push(`  // ${operation.operationId}`, `  await flusso.${method.toUpperCase()}(${JSON.stringify(path)}${argument});`);
    }
  }
  return [...lines, "}", ""].join("\n");
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

  it("compiles a call of every operation that sends only what the document requires (no member with a default is required)", () => {
    const document = JSON.parse(readFileSync(join(portal, "openapi/openapi.json"), "utf8"));
    const source = everyOperation(document);
    writeFileSync(join(directory, "every-operation.ts"), source);
    expect(source).toContain('await flusso.POST("/webhook-endpoints", {"body":{"url":"x"}});');
    expect(source.match(/^ {2}await flusso\./gm)?.length).toBeGreaterThan(60);
    expect(typeErrors(join(directory, "every-operation.ts"))).toEqual([]);
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
