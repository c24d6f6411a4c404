/** @jest-environment node */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createServer, get as httpGet, type IncomingHttpHeaders, type Server } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { BrowserContext, Page } from "playwright-core";
import { freePort, startPortal, type RunningPortal } from "../../support/portal-server";
import { launchBrowser } from "./harness";

const METHODS = ["get", "post", "put", "patch", "delete", "head", "options"];
const LANGUAGES = ["cURL", "HTTP", "Elixir", "Python", "Java", "PHP"];

/** A stand-in API for the try-it panel: answers CORS like the real one and records what it got. */
function startFakeApi(port: number) {
  const received: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((request, response) => {
    response.setHeader("Access-Control-Allow-Origin", "*");
    if (request.method === "OPTIONS") {
      response.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type");
      response.setHeader("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE");
      return response.writeHead(204).end();
    }
    received.push({ method: request.method!, url: request.url!, headers: request.headers });
    response.setHeader("Access-Control-Expose-Headers", "x-ratelimit-limit");
    response
      .writeHead(200, { "Content-Type": "application/json", "x-ratelimit-limit": "600" })
      .end('{"data":[],"page":{"cursor":null,"size":25}}');
  });
  return new Promise<{ server: Server; received: typeof received }>((resolve) =>
    server.listen(port, "127.0.0.1", () => resolve({ server, received })),
  );
}

let portal: RunningPortal;
let api: Awaited<ReturnType<typeof startFakeApi>>;
let apiUrl: string;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let operationIds: string[];
let webhookIds: string[];

// Its own portal rather than the one test/browser/globalSetup.ts starts: the development host points
// at a stand-in API.
beforeAll(async () => {
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  api = await startFakeApi(port);
  portal = await startPortal({ FLUSSO_HOST_DEVELOPMENT: apiUrl, FLUSSO_HOST_PRODUCTION: "https://api.flusso.example" });
  browser = await launchBrowser();
  // The page reads the document built into the portal, which it also serves: compare against that.
  type PathItems = Record<string, Record<string, { operationId: string }>>;
  const document = (await (await fetch(`${portal.url}/openapi.json`)).json()) as { paths: PathItems; webhooks?: PathItems };
  const ids = (items: PathItems = {}) =>
    Object.values(items).flatMap((item) => METHODS.filter((m) => item[m]).map((m) => item[m].operationId));
  operationIds = ids(document.paths);
  webhookIds = ids(document.webhooks);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
  api?.server.closeAllConnections();
  await new Promise((resolve) => api?.server.close(resolve));
}, 30_000);

async function openReference(context: BrowserContext, hash = ""): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${portal.url}/api-reference/${hash}`);
  await page.waitForFunction(() => document.querySelector(".ref-layout") && (window as { __remixRouter?: unknown }).__remixRouter);
  return page;
}

interface Position {
  top: number;
  navbarBottom: number;
  viewport: number;
}

/**
 * Where an anchor sits once the page has scrolled to it: polled for up to 5 s (a loaded machine may take a while to
 * scroll after hydration), then the last position, which the test judges; a page left off target never gets there.
 */
async function settledPosition(page: Page, anchor: string, landed: (position: Position) => boolean): Promise<Position> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    await page.waitForTimeout(100);
    const position = await page.evaluate((id) => {
      return {
        top: document.getElementById(id)!.getBoundingClientRect().top,
        navbarBottom: document.querySelector(".navbar")!.getBoundingClientRect().bottom,
        viewport: window.innerHeight,
      };
    }, anchor);
    if (landed(position) || Date.now() > deadline) return position;
  }
}

const panelTexts = (page: Page) =>
  page.$$eval(".ref-operation", (sections) =>
    sections.map((section) => ({
      id: section.id,
      tabs: [...section.querySelectorAll(".code-tabs [role=tab]")].map((t) => t.textContent),
      tryIt: section.querySelector(".ref-try-it") !== null,
      code: section.querySelector("[role=tabpanel]")?.textContent ?? "",
    })),
  );

describe("API reference in the browser", () => {
  it("lists every operation of the OpenAPI document, each with its six samples, and every webhook once without them", async () => {
    expect(operationIds.length).toBeGreaterThan(0);
    expect(webhookIds).toEqual([
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
    const page = await openReference(browser.context);
    const sections = await panelTexts(page);
    expect(sections.map((s) => s.id.replace("operation/", "")).sort()).toEqual([...operationIds, ...webhookIds].sort());
    for (const { id, tabs, tryIt } of sections) {
      const webhook = webhookIds.includes(id.replace("operation/", ""));
      expect({ id, tabs, tryIt }).toEqual({ id, tabs: webhook ? [] : LANGUAGES, tryIt: !webhook });
    }
    // What the server alone renders (descriptions, parameters, schemas) is still there once the page has hydrated.
    expect(await page.locator(".ref-operation-docs h3").count()).toBe(sections.length);
    expect(await page.locator(".ref-operation-docs .schema-tree").count()).toBeGreaterThan(0);
    expect(await page.locator(".ref-intro h1").textContent()).toMatch(/\S/);
    const sidebarGroups = await page.locator(".ref-sidebar-group").allTextContents();
    expect(sidebarGroups.at(-1)).toBe("Webhooks");
    expect(await page.locator('.ref-sidebar a[href="#operation/documentUpdated"]').textContent()).toBe("POSTdocument.updated");
    expect(await page.locator('.ref-sidebar a[href="#operation/documentDeleted"]').textContent()).toBe("POSTdocument.deleted");

    // The chosen language is shared by every group: one click switches every operation's sample.
    for (const language of LANGUAGES) {
      await page.locator(".ref-operation [role=tab]", { hasText: language }).first().click();
      // Languages after the first load their generators on first use: every panel is busy until then.
      await page.waitForFunction(() => !document.querySelector(".ref-operation [role=tabpanel][aria-busy]"));
      for (const { id, code } of (await panelTexts(page)).filter((s) => s.tryIt)) {
        expect({
          id,
          language,
          bearer: /authorization.{1,12}Bearer (YOUR_API_KEY|\$FLUSSO_API_KEY|" <> System|" \+ System|' \. getenv|\{os\.environ)/i.test(
            code,
          ),
          host: code.includes(apiUrl.replace("http://", "")),
        }).toEqual({
          id,
          language,
          bearer: true,
          host: true,
        });
      }
    }
    await page.close();
  }, 60_000);

  it("rewrites the samples host when the environment changes", async () => {
    const page = await openReference(browser.context);
    await page.locator(".ref-operation [role=tab]", { hasText: "cURL" }).first().click();
    expect(await page.locator(".ref-operation [role=tabpanel]").first().textContent()).toContain(`--url '${apiUrl}/`);
    await page.getByLabel("Ambiente:").selectOption("production");
    expect(await page.locator(".ref-operation [role=tabpanel]").first().textContent()).toContain("--url 'https://api.flusso.example/");
    await page.getByLabel("Ambiente:").selectOption("development");
    await page.close();
  }, 60_000);

  it("try-it sends the request with the pasted key as a bearer token and shows the answer", async () => {
    const page = await openReference(browser.context);
    const panel = page.locator(".ref-operation").first().locator(".ref-try-it");
    await panel.locator("summary").click();
    await panel.getByLabel(/Chiave API/).fill("fls_dev_0123456789abcdefghijABCDEFGHIJ01");
    await panel.getByRole("button", { name: "Invia" }).click();
    await panel.getByTestId("try-it-status").waitFor();
    expect(await panel.getByTestId("try-it-status").textContent()).toBe("200");
    expect(await panel.getByTestId("try-it-body").textContent()).toContain('"cursor": null');
    const last = api.received.at(-1)!;
    expect(last.headers.authorization).toBe("Bearer fls_dev_0123456789abcdefghijABCDEFGHIJ01");
    expect(last.url).toMatch(/^\/api\/v1\//);
    // The key lives in this tab's sessionStorage only.
    expect(await page.evaluate(() => [Object.keys(localStorage).some((k) => k.includes("api-key")), Object.keys(sessionStorage)])).toEqual([
      false,
      ["flusso.try-it.api-key"],
    ]);
    await page.close();
  }, 30_000);

  it("a deep link scrolls the operation just below the fixed navbar", async () => {
    // One in the middle: the page can scroll it to the top (the last ones sit above the page end).
    const target = operationIds[Math.floor(operationIds.length / 2)];
    const page = await openReference(browser.context, `#operation/${target}`);
    const { top, navbarBottom } = await settledPosition(
      page,
      `operation/${target}`,
      (p) => p.top >= p.navbarBottom - 1 && p.top < p.navbarBottom + 40,
    );
    expect(top).toBeGreaterThanOrEqual(navbarBottom - 1);
    expect(top).toBeLessThan(navbarBottom + 40);
    // The sidebar marks the operation being read.
    await page.waitForSelector(`.ref-sidebar a[aria-current][href="#operation/${target}"]`);
    await page.close();
  }, 30_000);

  it("a hash changed within the page (address bar, history) also lands below the navbar", async () => {
    const targets = [0.5, 0.2, 0.8].map((at) => operationIds[Math.floor(operationIds.length * at)]);
    const page = await openReference(browser.context, `#operation/${targets[0]}`);
    const offset = (id: string) =>
      page.evaluate(
        (anchor) =>
          document.getElementById(anchor)!.getBoundingClientRect().top - document.querySelector(".navbar")!.getBoundingClientRect().bottom,
        `operation/${id}`,
      );
    // Polled (a loaded machine may take a while to scroll), but a page left off target never gets there.
    const landed = async (id: string) => {
      const deadline = Date.now() + 5_000;
      for (;;) {
        await page.waitForTimeout(100);
        const top = await offset(id);
        if (top >= -1 && top < 40) return true;
        if (Date.now() > deadline) return false;
      }
    };
    expect(await landed(targets[0])).toBe(true);
    // page.goto with another hash is a same-document navigation, as typing it in the address bar is.
    for (const target of targets.slice(1)) {
      await page.goto(`${portal.url}/api-reference/#operation/${target}`);
      expect({ target, landed: await landed(target) }).toEqual({ target, landed: true });
    }
    await page.goBack();
    expect(await landed(targets[1])).toBe(true);
    await page.close();
  }, 30_000);

  it("a deep link to the webhook shows it below the navbar", async () => {
    const page = await openReference(browser.context, "#operation/documentUpdated");
    const { top, navbarBottom, viewport } = await settledPosition(
      page,
      "operation/documentUpdated",
      (p) => p.top >= p.navbarBottom - 1 && p.top < p.viewport / 2,
    );
    expect(top).toBeGreaterThanOrEqual(navbarBottom - 1);
    expect(top).toBeLessThan(viewport / 2);
    await page.close();
  }, 30_000);

  it("a link from another page loads the reference as a document and lands on the linked operation", async () => {
    const target = operationIds[Math.floor(operationIds.length / 2)];
    const page = await browser.context.newPage();
    await page.goto(`${portal.url}/search?q=${target}`);
    await page.waitForFunction(() => (window as { __remixRouter?: unknown }).__remixRouter);
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname);
    });
    await page.locator(".search-results a").first().click();
    await page.waitForURL(`${portal.url}/api-reference/#operation/${target}`);
    await page.waitForFunction(() => document.querySelector(".ref-layout") && (window as { __remixRouter?: unknown }).__remixRouter);
    expect(documents).toEqual(["/api-reference/"]);
    expect(await page.locator(".ref-operation").count()).toBe(operationIds.length + webhookIds.length);
    const { top, navbarBottom } = await settledPosition(
      page,
      `operation/${target}`,
      (p) => p.top >= p.navbarBottom - 1 && p.top < p.navbarBottom + 40,
    );
    expect(top).toBeGreaterThanOrEqual(navbarBottom - 1);
    expect(top).toBeLessThan(navbarBottom + 40);
    await page.close();
  }, 30_000);

  it("a page answered from memory keeps its validator: a browser's current copy is confirmed with 304", async () => {
    const first = await fetch(`${portal.url}/api-reference/`);
    await first.arrayBuffer();
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\//);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const again = await fetch(`${portal.url}/api-reference/`, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
  });

  it("a page answered from memory is sent as compressed once, and reads the same in every coding", async () => {
    const raw = (acceptEncoding: string) =>
      new Promise<{ encoding: string | undefined; vary: string | undefined; etag: string | undefined; body: Buffer }>((resolve, reject) => {
        httpGet(`${portal.url}/api-reference/`, { headers: { "Accept-Encoding": acceptEncoding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              encoding: response.headers["content-encoding"],
              vary: response.headers.vary,
              etag: response.headers.etag,
              body: Buffer.concat(chunks),
            }),
          );
          response.on("error", reject);
        }).on("error", reject);
      });
    const identity = await raw("identity");
    expect(identity.encoding).toBeUndefined();
    expect(identity.body.toString()).toContain('class="ref-operation');
    const gzip = await raw("gzip, deflate");
    expect(gzip.encoding).toBe("gzip");
    expect(gzip.vary).toMatch(/Accept-Encoding/i);
    expect(gzip.etag).toBe(identity.etag);
    expect(gunzipSync(gzip.body).equals(identity.body)).toBe(true);
    // Brotli is made after the page is kept, at its best quality: a few seconds for the reference.
    let br = await raw("gzip, deflate, br");
    for (let wait = 0; br.encoding !== "br" && wait < 100; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      br = await raw("gzip, deflate, br");
    }
    expect(br.encoding).toBe("br");
    expect(br.etag).toBe(identity.etag);
    expect(br.body.length).toBeLessThan(gzip.body.length);
    expect(brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
  }, 30_000);

  it("reads without JavaScript: operations, schemas and samples are in the server HTML", async () => {
    const noScript = await launchBrowser({ javaScriptEnabled: false });
    const page = await noScript.context.newPage();
    await page.goto(`${portal.url}/api-reference/`);
    expect(await page.locator(".ref-operation").count()).toBe(operationIds.length + webhookIds.length);
    expect(await page.locator(".ref-operation [role=tabpanel]").first().textContent()).toContain("Authorization: Bearer");
    expect(await page.locator(".schema-tree").count()).toBeGreaterThan(0);
    await noScript.close();
  }, 30_000);

  it("search finds a docs page, an operation and the webhook", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${portal.url}/search?q=authentication`);
    expect(await page.locator(".search-results a").first().getAttribute("href")).toBe("/authentication/");
    const operation = operationIds[0];
    await page.goto(`${portal.url}/search?q=${operation}`);
    expect(await page.locator(".search-results a").first().getAttribute("href")).toBe(`/api-reference/#operation/${operation}`);
    await page.goto(`${portal.url}/search?q=document.updated`);
    expect(await page.locator(".search-results a").first().getAttribute("href")).toBe("/api-reference/#operation/documentUpdated");

    // The navbar box asks the same route as you type.
    await page.goto(`${portal.url}/api-reference/`);
    await page.waitForFunction(() => (window as { __remixRouter?: unknown }).__remixRouter);
    await page.getByRole("combobox", { name: /Cerca/ }).fill(operation);
    await page.locator(".site-search-results a").first().waitFor();
    expect(await page.locator(".site-search-results a").first().getAttribute("href")).toBe(`/api-reference/#operation/${operation}`);
    await page.close();
  }, 30_000);
});

describe("llms.txt and Markdown versions", () => {
  it("llms.txt links the Markdown version of every docs page and of the reference, and each answers", async () => {
    const response = await fetch(`${portal.url}/llms.txt`);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^# Flusso Developers\n\n> /);
    const links = [...text.matchAll(/\]\((http[^)]+\.md)\)/g)].map((m) => m[1]);
    expect(links).toContain(`${portal.url}/api-reference.md`);
    expect(links).toContain(`${portal.url}/index.md`);
    for (const link of links) {
      const page = await fetch(link);
      expect({ link, status: page.status, type: page.headers.get("content-type") }).toEqual({
        link,
        status: 200,
        type: "text/markdown; charset=utf-8",
      });
      expect(await page.text()).toMatch(/^# /);
    }
  });

  it("the reference Markdown lists every operation and webhook; unknown pages are 404", async () => {
    const markdown = await (await fetch(`${portal.url}/api-reference.md`)).text();
    for (const id of [...operationIds, ...webhookIds]) expect(markdown).toContain(`(operationId \`${id}\`)`);
    expect((await fetch(`${portal.url}/basics/nope.md`)).status).toBe(404);
  });

  it("serves the OpenAPI document as JSON and YAML", async () => {
    const yaml = await fetch(`${portal.url}/openapi.yaml`);
    expect(yaml.headers.get("content-type")).toMatch(/^application\/yaml/);
    expect(await yaml.text()).toMatch(/^openapi: /);
  });
});
