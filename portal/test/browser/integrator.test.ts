/**
 * The portal followed literally by an integrator (issue 9): one host per environment, the page language, layouts at
 * 1280 and 390 px in both themes, try-it failures in words, samples filled from the try-it panel, search that lands on
 * sections, and the files integrators download.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { createServer, type Server } from "node:http";
import type { Page } from "playwright-core";
import { freePort, startPortal, type RunningPortal } from "../support/portal-server";
import { launch, type Browser } from "./support";

jest.setTimeout(90_000);

/** An API that answers but sends no CORS headers: a browser on another origin must refuse its answers. */
function startApiWithoutCors(port: number): Promise<Server> {
  const server = createServer((request, response) => {
    response.writeHead(request.method === "OPTIONS" ? 204 : 200, { "Content-Type": "application/json" }).end("{}");
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

let portal: RunningPortal;
let api: Server;
let developmentHost: string;
let productionHost: string;
const browsers: Record<"light" | "dark", Browser> = {} as Record<"light" | "dark", Browser>;

beforeAll(async () => {
  const apiPort = await freePort();
  developmentHost = `http://127.0.0.1:${apiPort}`;
  // Nothing listens there: the "network" failure.
  productionHost = `http://127.0.0.1:${await freePort()}`;
  api = await startApiWithoutCors(apiPort);
  // As `npm start` runs it: the development host is the local API.
  portal = await startPortal({ FLUSSO_HOST_DEVELOPMENT: developmentHost, FLUSSO_HOST_PRODUCTION: productionHost });
  browsers.light = await launch({ colorScheme: "light" });
  browsers.dark = await launch({ colorScheme: "dark" });
}, 60_000);

afterAll(async () => {
  await browsers.light?.close();
  await browsers.dark?.close();
  await portal?.stop();
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
}, 30_000);

const url = (path: string) => `${portal.url}${path}`;

/** A page of the given width in the given theme (the site's own toggle, stored as a visitor's choice would be). */
async function openPage(path: string, { width = 1280, theme = "light" as "light" | "dark" } = {}): Promise<Page> {
  const page = await browsers[theme].context.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.goto(url("/__blank__"));
  await page.evaluate((choice) => {
    localStorage.clear();
    sessionStorage.clear();
    localStorage.setItem("theme", choice);
  }, theme);
  await page.goto(url(path));
  await page.waitForFunction(() => (window as { __flussoClientStarted?: boolean }).__flussoClientStarted === true);
  await page.waitForFunction(() => document.documentElement.dataset.environment !== undefined);
  expect(await page.getAttribute("html", "data-theme")).toBe(theme);
  return page;
}

const visibleText = (page: Page) => page.evaluate(() => document.body.innerText);

describe("one development host per environment", () => {
  it.each(["/", "/faqs", "/openapi-specification", "/api-reference/", "/quickstarts/quickstarts-step-by-step"])(
    "%s names the configured hosts and never the sandbox default",
    async (path) => {
      const page = await openPage(path);
      const text = await visibleText(page);
      expect(text).toContain(developmentHost);
      expect(text).not.toContain("api.sandbox.flusso.example");
      await page.close();
    },
  );

  it("the downloaded OpenAPI documents, Postman and Insomnia files use them too", async () => {
    const json = (await (await fetch(url("/openapi.json"))).json()) as { servers: Array<{ url: string }> };
    expect(json.servers.map((server) => server.url)).toEqual([`${developmentHost}/api/v1`, `${productionHost}/api/v1`]);
    expect(await (await fetch(url("/openapi.yaml"))).text()).toContain(`url: ${developmentHost}/api/v1`);
    const postman = (await (await fetch(url("/downloads/flusso.postman_collection.json"))).json()) as {
      variable: Array<{ key: string; value: string }>;
    };
    expect(postman.variable).toContainEqual({ key: "baseUrl", value: developmentHost, type: "string" });
  });
});

describe("the OpenAPI specification page", () => {
  it.each([
    ["/openapi.json", "openapi.json"],
    ["/openapi.yaml", "openapi.yaml"],
    ["/downloads/flusso.postman_collection.json", "flusso.postman_collection.json"],
    ["/downloads/flusso.insomnia.json", "flusso.insomnia.json"],
  ])("offers %s for download and stays on the page", async (href, fileName) => {
    const page = await openPage("/openapi-specification");
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator(`.markdown a[href="${href}"]`).first().click()]);
    expect(download.suggestedFilename()).toBe(fileName);
    expect(new URL(page.url()).pathname).toBe("/openapi-specification");
    await page.close();
  });
});

describe("page language", () => {
  it("is English on the docs and the reference, Italian elsewhere, and follows client-side navigation", async () => {
    const page = await openPage("/basics/errors");
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(await page.getAttribute(".navbar", "lang")).toBe("it");
    await page.goto(url("/search?q=errori"));
    expect(await page.getAttribute("html", "lang")).toBe("it");
    await page.goto(url("/api-reference/"));
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await page.locator(".navbar a", { hasText: "Documentazione" }).first().click();
    await page.waitForURL((target) => !target.pathname.startsWith("/api-reference"));
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await page.close();
  });
});

describe.each(["light", "dark"] as const)("layout, %s theme", (theme) => {
  it("1280 px: request samples and response examples per status share the right column, with no line cut off", async () => {
    const page = await openPage("/api-reference/#operation/listDocuments", { theme });
    const operation = page.locator("#operation\\/listDocuments");
    const docs = await operation.locator(".ref-operation-docs").boundingBox();
    const examples = operation.locator(".ref-operation-samples .ref-response-examples");
    const box = await examples.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(docs!.x + docs!.width);
    expect(await operation.locator(".ref-operation-docs .ref-example").count()).toBe(0);
    const statuses = await examples.locator("[role=tab]").allTextContents();
    expect(statuses).toEqual(expect.arrayContaining(["200", "400"]));
    await examples.locator("[role=tab]", { hasText: "400" }).click();
    expect(await examples.locator("[role=tabpanel]").textContent()).toContain('"errors"');
    const cutOff = await page.$$eval(
      ".ref-operation-samples pre",
      (pres) => pres.filter((pre) => pre.scrollWidth > pre.clientWidth + 1).length,
    );
    expect(cutOff).toBe(0);
    await page.close();
  });

  it.each(["/api-reference/", "/", "/basics/filter-results", "/basics/errors", "/faqs"])(
    "390 px: %s does not scroll sideways",
    async (path) => {
      const page = await openPage(path, { width: 390, theme });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.close();
    },
  );

  it("390 px: the environments table keeps each host on one line", async () => {
    const page = await openPage("/", { width: 390, theme });
    const lines = await page.$$eval("#environments ~ .table-wrapper td code", (codes) =>
      codes.filter((code) => /^https?:\/\//.test(code.textContent ?? "")).map((code) => code.getClientRects().length),
    );
    expect(lines).toHaveLength(2);
    expect(lines).toEqual([1, 1]);
    await page.close();
  });

  it("390 px: the reference menu takes its own room instead of floating over the text", async () => {
    const page = await openPage("/api-reference/#operation/listDocuments", { width: 390, theme });
    const toggle = page.locator(".ref-menu-toggle");
    expect(await toggle.evaluate((el) => getComputedStyle(el).position)).toBe("sticky");
    const bar = (await toggle.boundingBox())!;
    const title = (await page.locator("#listDocuments-title").boundingBox())!;
    expect(title.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
    // Where the floating button used to sit, the page's own content is what a tap reaches.
    const underCorner = await page.evaluate(() =>
      document.elementFromPoint(innerWidth - 40, innerHeight - 30)?.closest(".ref-menu-toggle"),
    );
    expect(underCorner).toBeNull();
    await toggle.click();
    await page.locator(".ref-sidebar a", { hasText: "Get a document" }).click();
    await page.waitForFunction(() => location.hash === "#operation/getDocument");
    await page.waitForTimeout(300);
    const after = (await page.locator("#getDocument-title").boundingBox())!;
    const barAfter = (await toggle.boundingBox())!;
    expect(after.y).toBeGreaterThanOrEqual(barAfter.y + barAfter.height - 1);
    await page.close();
  });
});

describe("try-it", () => {
  async function sendFromPanel(page: Page) {
    const operation = page.locator("#operation\\/listCompanies");
    await operation.locator(".ref-try-it summary").click();
    await operation.getByLabel(/Chiave API/).fill("fls_dev_0123456789abcdefghijABCDEFGHIJ01");
    await operation.getByRole("button", { name: "Invia" }).click();
    return operation.getByTestId("try-it-error");
  }

  it("says the browser refused the answer on CORS grounds when the host answers without CORS headers", async () => {
    const page = await openPage("/api-reference/#operation/listCompanies");
    const error = await sendFromPanel(page);
    await error.waitFor();
    expect(await error.textContent()).toContain(`${developmentHost} ha risposto, ma il browser ha bloccato la risposta per le regole CORS`);
    await page.close();
  });

  it("says the host cannot be reached when nothing answers", async () => {
    const page = await openPage("/api-reference/#operation/listCompanies");
    await page.selectOption("#environment-select", "production");
    const error = await sendFromPanel(page);
    await error.waitFor();
    expect(await error.textContent()).toContain(`Impossibile raggiungere ${productionHost}`);
    await page.close();
  });

  it("fills every operation's samples with the key and the company typed once, and offers a filter the list accepts", async () => {
    const page = await openPage("/api-reference/#operation/listDocuments");
    const documents = page.locator("#operation\\/listDocuments");
    expect(await documents.locator(".code-tabs [role=tabpanel]").textContent()).toContain('"Authorization: Bearer $FLUSSO_API_KEY"');
    await documents.locator(".ref-try-it summary").click();
    await documents.getByLabel(/Chiave API/).fill("fls_dev_0123456789abcdefghijABCDEFGHIJ01");
    await documents.getByLabel("company_id", { exact: true }).fill("11111111-2222-4333-8444-555555555555");
    const extra = documents.getByLabel(/^Altri parametri/);
    expect(await extra.getAttribute("placeholder")).toBe("filter[creation_date__gte]=2026-01-01");
    await extra.fill("filter[creation_date__gte]=2026-01-01");
    const code = await documents.locator(".code-tabs [role=tabpanel]").textContent();
    expect(code).toContain("/companies/11111111-2222-4333-8444-555555555555/documents?filter%5Bcreation_date__gte%5D=2026-01-01");
    expect(code).toContain("Bearer fls_dev_••••••••IJ01");
    // Another operation, never opened: same company and key.
    const transactions = await page.locator("#operation\\/listTransactions .code-tabs [role=tabpanel]").textContent();
    expect(transactions).toContain("/companies/11111111-2222-4333-8444-555555555555/transactions");
    expect(transactions).toContain("fls_dev_••••••••IJ01");
    // Remembered for the next visit (the key only for this tab).
    await page.reload();
    await page.waitForFunction(() =>
      document
        .querySelector("#operation\\/listTransactions .code-tabs [role=tabpanel]")
        ?.textContent?.includes("11111111-2222-4333-8444-555555555555"),
    );
    await page.close();
  });
});

describe("search", () => {
  async function firstResult(page: Page, query: string) {
    const box = page.locator(".navbar input[type=search]");
    await box.fill(query);
    const option = page.locator(".site-search-results [role=option] a").first();
    await option.waitFor();
    return option;
  }

  it("opens the errors page at the code searched for", async () => {
    const page = await openPage("/");
    const result = await firstResult(page, "currency_mismatch");
    await result.click();
    await page.waitForURL(url("/basics/errors#currency_mismatch"));
    const heading = page.locator("#currency_mismatch");
    await heading.waitFor();
    const box = (await heading.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeLessThan(900);
    await page.close();
  });

  it("tolerates a typo and finds Italian words", async () => {
    const page = await openPage("/");
    expect(await (await firstResult(page, "webhok")).textContent()).toMatch(/webhook/i);
    expect(await (await firstResult(page, "riconciliazione")).textContent()).toMatch(/reconcil/i);
    expect(await (await firstResult(page, "fattura")).textContent()).toMatch(/invoice|fattura/i);
    await page.close();
  });
});

describe("files for integrators and their tools", () => {
  it("Postman and Insomnia files hold every operation of the document, and a request more for each further body type", async () => {
    const document = (await (await fetch(url("/openapi.json"))).json()) as {
      paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, unknown> } }>>;
    };
    // An operation whose body may be sent as several media types is one request per type that has an example, the
    // first under its own id (a signed invoice file has none: only its signer can make one).
    const operationIds = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap(({ operationId, requestBody }) => [
        operationId,
        ...Object.entries(requestBody?.content ?? {})
          .slice(1)
          .filter(([, media]) => (media as { examples?: unknown }).examples !== undefined)
          .map(([type]) => `${operationId}_${type.replace(/[^A-Za-z0-9]+/g, "_")}`),
      ]),
    );
    expect(operationIds).toContain("createInvoice_application_xml");
    expect(operationIds).not.toContain("createInvoice_application_pkcs7_mime");
    const postmanResponse = await fetch(url("/downloads/flusso.postman_collection.json"));
    expect(postmanResponse.headers.get("content-disposition")).toContain("attachment");
    const postman = (await postmanResponse.json()) as {
      info: { schema: string };
      item: Array<{ item: Array<{ request: { method: string } }> }>;
    };
    expect(postman.info.schema).toBe("https://schema.getpostman.com/json/collection/v2.1.0/collection.json");
    expect(postman.item.flatMap((folder) => folder.item)).toHaveLength(operationIds.length);
    const insomnia = (await (await fetch(url("/downloads/flusso.insomnia.json"))).json()) as {
      __export_format: number;
      resources: Array<{ _type: string; _id: string }>;
    };
    expect(insomnia.__export_format).toBe(4);
    expect(
      insomnia.resources
        .filter((r) => r._type === "request")
        .map((r) => r._id.replace(/^req_/, ""))
        .sort(),
    ).toEqual([...operationIds].sort());
  });

  it("offer the create-invoice call as JSON and as XML, each with its Content-Type and the document's example", async () => {
    type Examples = { examples: Record<string, { value: unknown }> };
    const document = (await (await fetch(url("/openapi.json"))).json()) as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, Examples> } }>>;
    };
    const example = (type: string) =>
      Object.values(document.paths["/companies/{company_id}/documents/invoice"].post.requestBody.content[type].examples)[0].value;
    const json = example("application/json");
    const xml = example("application/xml") as string;
    expect(xml).toMatch(/^<\?xml /);

    const postman = (await (await fetch(url("/downloads/flusso.postman_collection.json"))).json()) as {
      item: Array<{
        item: Array<{
          name: string;
          request: {
            method: string;
            url: { raw: string };
            header: Array<{ key: string; value: string }>;
            body?: { mode: string; raw: string; options: { raw: { language: string } } };
          };
        }>;
      }>;
    };
    const postmanCalls = postman.item
      .flatMap((folder) => folder.item)
      .filter(({ request }) => request.method === "POST" && request.url.raw.endsWith("/companies/:company_id/documents/invoice"));
    expect(
      postmanCalls.map(({ request }) => [
        request.header.find((h) => h.key === "Content-Type")?.value,
        request.body?.mode,
        request.body?.options.raw.language,
      ]),
    ).toEqual([
      ["application/json", "raw", "json"],
      ["application/xml", "raw", "xml"],
    ]);
    // The collection is a suite: each invoice carries a number of its own per run, the rest is the document's example.
    const numbered = (body: unknown, number: string) =>
      JSON.parse(JSON.stringify(body).replace(/"numero":"[^"]*"/, `"numero":"${number}"`));
    expect(JSON.parse(postmanCalls[0].request.body!.raw)).toEqual(numbered(json, "{{invoice_number}}"));
    expect(postmanCalls[1].request.body!.raw).toBe(xml.replace(/<Numero>[^<]*<\/Numero>/, "<Numero>{{invoice_number_xml}}</Numero>"));
    expect(postmanCalls[1].name).not.toBe(postmanCalls[0].name);

    const insomnia = (await (await fetch(url("/downloads/flusso.insomnia.json"))).json()) as {
      resources: Array<{
        _id: string;
        _type: string;
        name: string;
        method?: string;
        url?: string;
        headers?: Array<{ name: string; value: string }>;
        body?: { mimeType?: string; text?: string };
      }>;
    };
    // Insomnia merges a re-imported file by _id: every resource has its own.
    expect(new Set(insomnia.resources.map((r) => r._id)).size).toBe(insomnia.resources.length);
    const insomniaCalls = insomnia.resources.filter(
      (r) => r._type === "request" && r.method === "POST" && r.url!.endsWith("/companies/{{ _.company_id }}/documents/invoice"),
    );
    expect(insomniaCalls.map((r) => [r.headers!.find((h) => h.name === "Content-Type")?.value, r.body!.mimeType])).toEqual([
      ["application/json", "application/json"],
      ["application/xml", "application/xml"],
    ]);
    expect(JSON.parse(insomniaCalls[0].body!.text!)).toEqual(json);
    expect(insomniaCalls[1].body!.text).toBe(xml);
    expect(insomniaCalls[1].name).not.toBe(insomniaCalls[0].name);
  });

  it("sitemap.xml, robots.txt and llms-full.txt", async () => {
    const sitemap = await (await fetch(url("/sitemap.xml"))).text();
    for (const path of ["/", "/client-libraries", "/basics/errors", "/api-reference/"])
      expect(sitemap).toContain(`<loc>${url(path)}</loc>`);
    expect(await (await fetch(url("/robots.txt"))).text()).toContain(`Sitemap: ${url("/sitemap.xml")}`);
    const full = await (await fetch(url("/llms-full.txt"))).text();
    for (const title of ["# Getting started", "# Errors", "# Client libraries", "# Step-by-step quickstart"]) expect(full).toContain(title);
    expect(await (await fetch(url("/llms.txt"))).text()).toContain(url("/llms-full.txt"));
  });

  it("every docs page shows a Markdown link to its text", async () => {
    const page = await openPage("/basics/errors", { width: 390 });
    const link = page.getByRole("link", { name: "Markdown", exact: true });
    expect(await link.isVisible()).toBe(true);
    const response = await fetch(url((await link.getAttribute("href"))!));
    expect(response.headers.get("content-type")).toContain("text/markdown");
    expect(await response.text()).toMatch(/^# Errors\n/);
    await page.close();
  });
});
