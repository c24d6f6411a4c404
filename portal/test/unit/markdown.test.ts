import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { includeFiles, parseFrontMatter, renderMarkdown, slugify, type DocBlock } from "~/docs/markdown";
import { buildSidebar, flattenSidebar } from "~/docs/sidebar";
import { DOC_PAGES } from "~/content/pages";
import { docPathOf, docUrl, samePath, withoutIndexSuffix } from "~/docs/urls";

const hosts = { development: "https://dev.example", production: "https://prod.example" };
const render = (body: string) => renderMarkdown(body, { hosts, email: "help@example.test" });
const html = (blocks: DocBlock[]) => blocks.map((b) => (b.kind === "html" ? b.html : "")).join("");

describe("front matter", () => {
  it("reads the contract's fields and returns the body without it", () => {
    const { data, body } = parseFrontMatter(
      "---\ntitle: Errors\ndescription: What went wrong.\nsidebar_label: Errori\nsidebar_position: 3\nsidebar_category: Basics\n---\n\nHello",
    );
    expect(data).toEqual({
      title: "Errors",
      description: "What went wrong.",
      sidebar_label: "Errori",
      sidebar_position: 3,
      sidebar_category: "Basics",
    });
    expect(body.trim()).toBe("Hello");
  });

  it("falls back to the title for the sidebar label", () => {
    expect(parseFrontMatter("---\ntitle: FAQs\n---\nx").data.sidebar_label).toBe("FAQs");
  });
});

describe("renderMarkdown", () => {
  it("gives h2 and h3 slug ids and lists only them in the TOC, in order", () => {
    const { blocks, toc } = render("## First part\n\ntext\n\n### A detail?\n\n#### Too deep\n\n## First part\n");
    expect(toc).toEqual([
      { id: "first-part", text: "First part", level: 2 },
      { id: "a-detail", text: "A detail?", level: 3 },
      { id: "first-part-1", text: "First part", level: 2 },
    ]);
    expect(html(blocks)).toContain('<h2 id="first-part"');
    expect(html(blocks)).toContain('<h4 id="too-deep"');
  });

  it("drops a leading h1, which the page frame already shows", () => {
    expect(html(render("# Title\n\nBody").blocks)).not.toContain("<h1");
  });

  it("renders GFM tables inside a scrolling wrapper", () => {
    expect(html(render("| a | b |\n|---|---|\n| 1 | 2 |\n").blocks)).toMatch(/<div class="table-wrapper" tabindex="0"><table>/);
  });

  it("groups consecutive sample blocks into one tab group, in file order", () => {
    const { blocks } = render(
      "Intro\n\n```curl\ncurl {{host}}/api/v1/companies\n```\n\n```python\nrequests.get('{{host}}/x')\n```\n```php\n<?php\n```\n\nAfter\n\n```json\n{}\n```\n",
    );
    expect(blocks.map((b) => b.kind)).toEqual(["html", "samples", "html"]);
    const group = blocks[1] as Extract<DocBlock, { kind: "samples" }>;
    expect(group.samples.map((s) => s.label)).toEqual(["cURL", "Python", "PHP"]);
    expect(group.samples[0].code).toBe("curl {{host}}/api/v1/companies");
    expect(group.samples[0].html).toContain('<span data-env="development">https://dev.example</span>');
    expect(group.samples[0].html).toContain('<span data-env="production">https://prod.example</span>');
    expect(html(blocks)).toContain('class="hljs language-json"');
  });

  it("replaces {{email}} everywhere and {{host}} in text, code and links", () => {
    const { blocks } = render("Write to {{email}}. Base: `{{host}}/api/v1`. [Try]({{host}}/api/v1/companies)\n");
    const out = html(blocks);
    expect(out).toContain("help@example.test");
    expect(out).not.toContain("{{");
    expect(out).toContain('href="https://dev.example/api/v1/companies"');
    expect(out).toContain('<code><span class="env-host">');
  });

  it("offers the site's JSON and YAML files for download, and leaves pages and other sites alone", () => {
    const out = html(
      render(
        "[a](/openapi.json) [b](/openapi.yaml) [c](/downloads/flusso.postman_collection.json) [d](/changelog) [e](https://x.example/a.json)",
      ).blocks,
    );
    expect(out).toContain('<a href="/openapi.json" download>');
    expect(out).toContain('<a href="/openapi.yaml" download>');
    expect(out).toContain('<a href="/downloads/flusso.postman_collection.json" download>');
    expect(out).toContain('<a href="/changelog">');
    expect(out).toContain('<a href="https://x.example/a.json" target="_blank" rel="noopener noreferrer">');
  });

  it("renders admonitions with their type and optional title, nesting sample groups", () => {
    const { blocks } = render(":::warning Careful\nThis **matters**.\n\n```curl\ncurl x\n```\n:::\n\n:::tip\nDefault title\n:::\n");
    expect(blocks[0]).toMatchObject({ kind: "admonition", type: "warning", title: "Careful" });
    const inner = (blocks[0] as Extract<DocBlock, { kind: "admonition" }>).blocks;
    expect(inner.map((b) => b.kind)).toEqual(["html", "samples"]);
    expect(html(inner)).toContain("<strong>matters</strong>");
    expect(blocks[1]).toMatchObject({ kind: "admonition", type: "tip", title: "Suggerimento" });
  });

  it("slugifies like GitHub", () => {
    expect(slugify("Filter operators: `in` & `notIn`")).toBe("filter-operators-in--notin");
    expect(slugify("Perché è così")).toBe("perché-è-così");
  });
});

describe("sidebar and URLs", () => {
  const doc = (path: string, position: number, category?: string) => ({
    path,
    data: {
      title: path,
      description: "",
      sidebar_label: path,
      sidebar_position: position,
      ...(category ? { sidebar_category: category } : {}),
    },
  });

  it("orders by position and groups categories where their first page falls", () => {
    const sidebar = buildSidebar([
      doc("faqs", 20),
      doc("basics/errors", 5, "Basics"),
      doc("index", 1),
      doc("basics/common-terms", 4, "Basics"),
    ]);
    expect(sidebar.map((i) => i.label)).toEqual(["index", "Basics", "faqs"]);
    expect(flattenSidebar(sidebar).map((l) => l.href)).toEqual(["/", "/basics/common-terms", "/basics/errors", "/faqs"]);
  });

  it("spells URLs as the spec does", () => {
    expect(docUrl("index")).toBe("/");
    expect(docUrl("authentication")).toBe("/authentication/");
    expect(docUrl("quickstarts/quickstarts-step-by-step")).toBe("/quickstarts/quickstarts-step-by-step");
  });

  it("finds the page of a URL as the router matches its route: letter case, a trailing slash and escapes aside", () => {
    for (const page of DOC_PAGES) expect(docPathOf(docUrl(page))).toBe(page);
    expect(docPathOf("/authentication")).toBe("authentication");
    expect(docPathOf("/Basics/Errors/")).toBe("basics/errors");
    expect(docPathOf("/basics/%65rrors")).toBe("basics/errors");
    expect(docPathOf("/basics/nope")).toBeUndefined();
    expect(docPathOf("/basics/%E0")).toBeUndefined();
  });

  it("treats index and .html suffixes as the page without them", () => {
    expect(withoutIndexSuffix("/index")).toBe("/");
    expect(withoutIndexSuffix("/index.html")).toBe("/");
    expect(withoutIndexSuffix("/basics/errors.html")).toBe("/basics/errors");
    expect(withoutIndexSuffix("/authentication/index")).toBe("/authentication/");
    expect(withoutIndexSuffix("/api-reference/index.html")).toBe("/api-reference/");
    expect(withoutIndexSuffix("/reindex")).toBe("/reindex");
    expect(withoutIndexSuffix("/basics/errors")).toBe("/basics/errors");
  });
});

describe("includes and environment hosts", () => {
  it("fills a fence that names a file with the file's text, and refuses a file that is not there", () => {
    const body = "Before\n\n```ts file=examples/a.ts\n```\n\nAfter\n";
    expect(includeFiles(body, { "examples/a.ts": "const a = 1;\n" }, "page")).toBe("Before\n\n```ts\nconst a = 1;\n```\n\nAfter\n");
    expect(() => includeFiles(body, {}, "page")).toThrow("page.md includes examples/a.ts");
  });

  it("writes {{host.development}} and {{host.production}} as those hosts whatever the selection", () => {
    const text = html(render("| Env | Host |\n|---|---|\n| Dev | `{{host.development}}` |\n| Prod | `{{host.production}}` |\n").blocks);
    expect(text).toContain("<code>https://dev.example</code>");
    expect(text).toContain("<code>https://prod.example</code>");
    expect(text).not.toContain("{{");
  });
});

describe("content", () => {
  const contentDir = fileURLToPath(new URL("../../app/content/", import.meta.url));
  const pages = (readdirSync(contentDir, { recursive: true }) as string[]).filter((file) => file.endsWith(".md"));

  it.each(pages)("every JSON example of %s parses", (page) => {
    const source = readFileSync(`${contentDir}${page}`, "utf8");
    const blocks = [...source.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]);
    for (const block of blocks) expect(() => JSON.parse(block)).not.toThrow();
  });

  it("every link to a section of a docs page names a heading of that page", () => {
    const allHtml = (blocks: DocBlock[]): string =>
      blocks.map((b) => (b.kind === "html" ? b.html : b.kind === "admonition" ? allHtml(b.blocks) : "")).join("");
    const rendered = pages.map((file) => {
      const docPath = file.replace(/\.md$/, "");
      const { body } = parseFrontMatter(readFileSync(`${contentDir}${file}`, "utf8"), docPath);
      return { url: docUrl(docPath), html: allHtml(render(body).blocks) };
    });
    const missing: string[] = [];
    for (const { url, html: text } of rendered) {
      for (const [, path, fragment] of text.matchAll(/href="(\/[^"#]*)#([^"]+)"/g)) {
        const target = rendered.find((page) => samePath(page.url, path));
        if (!target) continue; // the reference's operations are checked by the reference's own tests
        if (!target.html.includes(`id="${fragment}"`)) missing.push(`${url} → ${path}#${fragment}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
