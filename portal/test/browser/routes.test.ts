import { describe, expect, it, jest } from "@jest/globals";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { BASE_URL, browserForFile, freshPage, open } from "./support";

jest.setTimeout(60_000);

const contentDir = fileURLToPath(new URL("../../app/content/", import.meta.url));

/** Spec section 2: every docs route and the content file it renders. */
const ROUTES: [string, string][] = [
  ["/", "index"],
  ["/authentication/", "authentication"],
  ["/basics/common-terms", "basics/common-terms"],
  ["/basics/errors", "basics/errors"],
  ["/basics/idempotency", "basics/idempotency"],
  ["/basics/expand-results", "basics/expand-results"],
  ["/basics/filter-results", "basics/filter-results"],
  ["/basics/paginate-results", "basics/paginate-results"],
  ["/basics/sort-results", "basics/sort-results"],
  ["/basics/webhook", "basics/webhook"],
  ["/basics/events", "basics/events"],
  ["/changelog", "changelog"],
  ["/client-libraries", "client-libraries"],
  ["/faqs", "faqs"],
  ["/guides/chart-of-accounts-sync", "guides/chart-of-accounts-sync"],
  ["/guides/sending-an-e-invoice", "guides/sending-an-e-invoice"],
  ["/openapi-specification", "openapi-specification"],
  ["/quickstarts/quickstarts-step-by-step", "quickstarts/quickstarts-step-by-step"],
  // Guides, beyond the pages of the spec.
  ["/guides/bulk-payments", "guides/bulk-payments"],
  ["/guides/debugging-requests", "guides/debugging-requests"],
  ["/guides/numbering-documents", "guides/numbering-documents"],
  ["/guides/reading-f24-forms", "guides/reading-f24-forms"],
  ["/guides/sharing-an-invoice", "guides/sharing-an-invoice"],
  ["/guides/testing-in-the-sandbox", "guides/testing-in-the-sandbox"],
];

function frontMatterTitle(docPath: string): string {
  const source = readFileSync(`${contentDir}${docPath}.md`, "utf8");
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source);
  return String(parseYaml(match![1]).title);
}

const browser = browserForFile();

describe("docs routes", () => {
  it("every route of the spec has its Markdown file", () => {
    const missing = ROUTES.filter(([, docPath]) => !existsSync(`${contentDir}${docPath}.md`)).map(([route]) => route);
    expect(missing).toEqual([]);
  });

  it("every Markdown page of app/content has a route: the sidebar links to all of them", () => {
    const pages = readdirSync(contentDir, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".md"))
      .map((file) => file.replace(/\.md$/, ""));
    expect(pages.filter((docPath) => !ROUTES.some(([, routed]) => routed === docPath))).toEqual([]);
  });

  it.each(ROUTES.filter(([, docPath]) => existsSync(`${contentDir}${docPath}.md`)))(
    "%s renders its page inside the shared layout",
    async (route, docPath) => {
      const { page, errors } = await freshPage(browser);
      const response = await open(page, route);
      expect(response?.status()).toBe(200);
      const title = frontMatterTitle(docPath);
      await expect(page.locator("main h1").textContent()).resolves.toBe(title);
      expect(await page.title()).toContain(title);
      expect(await page.getAttribute("html", "lang")).toBe("en");
      expect(await page.getAttribute("html", "dir")).toBe("ltr");
      expect(await page.locator(".markdown").count()).toBe(1);
      await expect(page.locator(".beta-banner").textContent()).resolves.toContain("developers@flusso.example");
      expect(await page.locator('.docs-sidebar [aria-current="page"]').count()).toBe(1);
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it("the TOC lists exactly the page's h2 and h3 headings, in order", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/basics/errors");
    const headings = await page.$$eval(".markdown h2[id], .markdown h3[id]", (els) => els.map((el) => `${el.tagName}#${el.id}`));
    const toc = await page.$$eval(".toc a", (links) =>
      links.map((a) => {
        const target = document.getElementById(a.getAttribute("href")!.slice(1));
        return `${target?.tagName}#${target?.id}`;
      }),
    );
    expect(headings.length).toBeGreaterThan(0);
    expect(toc).toEqual(headings);
    expect(await page.$$eval(".toc a", (links) => links.every((a) => /^#/.test(a.getAttribute("href")!)))).toBe(true);
    await page.close();
  });
});

describe("other paths", () => {
  it.each(["/nope", "/basics/nope", "/api-reference/extra/segment"])("%s is the not-found page with status 404", async (path) => {
    const { page } = await freshPage(browser);
    const response = await open(page, path);
    expect(response?.status()).toBe(404);
    await expect(page.locator("main h1").textContent()).resolves.toBe("Pagina non trovata");
    await page.close();
  });

  it.each([
    ["/index", "/"],
    ["/index.html", "/"],
    ["/basics/errors.html", "/basics/errors"],
    ["/authentication/index.html", "/authentication/"],
  ])("%s is treated as %s", async (from, to) => {
    const response = await fetch(`${BASE_URL}${from}`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(new URL(response.headers.get("location")!, BASE_URL).pathname).toBe(to);
    const { page } = await freshPage(browser);
    await open(page, from);
    expect(new URL(page.url()).pathname).toBe(to);
    await page.close();
  });
});
