import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseFrontMatter, renderMarkdown } from "../../app/docs/markdown";
import { docUrl } from "../../app/docs/urls";
import { normalize, search, type SearchEntry } from "../../app/search/search";
import { plainText, sectionEntries } from "../../app/search/sections";

const entries: SearchEntry[] = [
  {
    kind: "page",
    title: "Errors",
    url: "/basics/errors",
    excerpt: "The error body and every code.",
    keywords: "Status codes",
    text: "unauthorized forbidden perché",
  },
  {
    kind: "page",
    title: "Pagination",
    url: "/basics/paginate-results",
    excerpt: "Walk a list with cursors.",
    keywords: "cursor page_size",
    text: "errors are rare",
  },
  {
    kind: "operation",
    title: "List transactions",
    url: "/api-reference/#operation/listTransactions",
    excerpt: "GET /api/v1/companies/{company_id}/transactions",
    keywords: "listTransactions Transactions GET",
    text: "bank transactions",
  },
];

describe("search", () => {
  it("finds a page by a word of its title before pages that only mention it", () => {
    expect(search(entries, "errors").map((r) => r.url)).toEqual(["/basics/errors", "/basics/paginate-results"]);
  });

  it("finds an operation by summary, operationId or path", () => {
    expect(search(entries, "list transactions")[0]).toEqual({
      kind: "operation",
      title: "List transactions",
      url: "/api-reference/#operation/listTransactions",
      excerpt: "GET /api/v1/companies/{company_id}/transactions",
    });
    expect(search(entries, "listtransactions")).toHaveLength(1);
  });

  it("requires every word, ignores case and accents, and returns nothing for an empty query", () => {
    expect(search(entries, "errors cursor")).toEqual([search(entries, "pagination")[0]]);
    expect(search(entries, "PERCHE")[0].url).toBe("/basics/errors");
    expect(search(entries, "  ")).toEqual([]);
    expect(normalize("Perché")).toBe("perche");
  });

  it("caps the number of results", () => {
    expect(search(entries, "e", 2)).toHaveLength(2);
  });
});

/** The site's real content, indexed as the server does (pages and their sections). */
const contentDir = fileURLToPath(new URL("../../app/content", import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith(".md") ? [join(dir, d.name)] : [],
  );
const hosts = { development: "http://localhost:3000", production: "https://api.flusso.example" };
const pages = files(contentDir).map((file) => {
  const path = relative(contentDir, file).replace(/\.md$/, "");
  const { data, body } = parseFrontMatter(readFileSync(file, "utf8"), path);
  return { path, url: docUrl(path), data, body };
});
const site: SearchEntry[] = pages.flatMap((page) => [
  {
    kind: "page" as const,
    title: page.data.title,
    url: page.url,
    excerpt: page.data.description,
    keywords: "",
    text: plainText(page.body),
  },
  ...sectionEntries(page.data.title, page.url, page.body),
]);

describe("search over the site's content", () => {
  it("gives every section the id its heading has on the page", () => {
    for (const page of pages) {
      const ids = renderMarkdown(page.body, { hosts, email: "e" }).toc.map((item) => item.id);
      expect(sectionEntries(page.data.title, page.url, page.body).map((entry) => entry.url.split("#")[1])).toEqual(ids);
    }
  });

  it("lands on the section: an error code opens the errors page at that code", () => {
    expect(search(site, "currency_mismatch")[0]).toMatchObject({ kind: "section", url: "/basics/errors#currency_mismatch" });
  });

  it("ranks entries named after the query before those that mention it", () => {
    const results = search(site, "webhook");
    expect(normalize(results[0].title)).toContain("webhook");
    const firstMention = results.findIndex((result) => !normalize(result.title).includes("webhook"));
    if (firstMention >= 0) expect(results.slice(firstMention).every((result) => !normalize(result.title).includes("webhook"))).toBe(true);
  });

  it("tolerates a typo", () => {
    expect(search(site, "webhok")[0].url).toBe(search(site, "webhook")[0].url);
    expect(search(site, "paginaton").length).toBeGreaterThan(0);
  });

  it("finds Italian words through the English the docs use", () => {
    expect(search(site, "riconciliazione").map((r) => r.url)).toEqual(expect.arrayContaining(["/basics/common-terms#reconciliation"]));
    expect(search(site, "fattura").length).toBeGreaterThan(0);
    expect(normalize(search(site, "fattura")[0].title + search(site, "fattura")[0].excerpt)).toMatch(/invoice|fattura/);
  });
});
