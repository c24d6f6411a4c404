import { getDoc, getDocsSidebar } from "~/docs/content.server";
import { flattenSidebar } from "~/docs/sidebar";
import { docUrl, markdownUrl } from "~/docs/urls";
import { portalEnv } from "~/config/env.server";
import { buildReferenceModel } from "~/reference/model";
import { openApiDocument } from "~/reference/document.server";
import { docMarkdown } from "./docMarkdown";
import { llmsTxt } from "./llmsTxt";
import { referenceMarkdown } from "./referenceMarkdown";

/** The docs pages in sidebar order, each with its site URL and the URL of its Markdown version. */
export function docsPages() {
  return flattenSidebar(getDocsSidebar()).flatMap((link) => {
    const doc = getDoc(link.docPath);
    return doc ? [{ ...doc, url: docUrl(doc.path), markdownUrl: markdownUrl(doc.path) }] : [];
  });
}

export const REFERENCE_MARKDOWN_URL = "/api-reference.md";

/** The Markdown version of a docs page, or undefined when there is no such page. */
export function docMarkdownFor(docPath: string): string | undefined {
  const doc = getDoc(docPath);
  if (!doc) return undefined;
  const { hosts, supportEmail } = portalEnv.site;
  return docMarkdown(
    { title: doc.data.title, description: doc.data.description, body: doc.body },
    { hosts, host: hosts.development, email: supportEmail },
  );
}

export function referenceMarkdownText(): string | undefined {
  const document = openApiDocument();
  return document && referenceMarkdown(buildReferenceModel(document), portalEnv.site.hosts.development);
}

export function llmsTxtFor(origin: string): string {
  const { hosts, supportEmail } = portalEnv.site;
  const document = openApiDocument();
  return llmsTxt({
    title: "Flusso Developers",
    summary:
      "Documentation of the Flusso Integration API (beta): a REST API over HTTPS, with bearer API keys, for the documents, e-invoices (SDI), payment flows, bank accounts, transactions and reconciliations of Italian businesses.",
    details: [
      `Base URLs: development \`${hosts.development}/api/v1\`, production \`${hosts.production}/api/v1\`. Every request sends \`Authorization: Bearer <API key>\`.`,
      `Lists are cursor-paginated and accept \`filter[field__op]\`, \`sort\` and \`expand\`. Support: ${supportEmail}.`,
    ].join(" "),
    sections: [
      {
        name: "Docs",
        links: docsPages().map((page) => ({ title: page.data.title, url: origin + page.markdownUrl, description: page.data.description })),
      },
      {
        name: "API reference",
        links: [
          {
            title: "API reference",
            url: origin + REFERENCE_MARKDOWN_URL,
            description:
              "Every operation with its parameters, allowed filters, sorts and expansions, bodies, responses and a curl example; the webhooks with their payloads.",
          },
          {
            title: "Everything in one file",
            url: origin + LLMS_FULL_URL,
            description: "Every docs page and the API reference, in sidebar order, as one Markdown text.",
          },
          ...(document
            ? [
                {
                  title: "OpenAPI document",
                  url: `${origin}/openapi.json`,
                  description: `OpenAPI ${document.openapi}, version ${document.info.version}.`,
                },
              ]
            : []),
        ],
      },
    ],
  });
}

export const LLMS_FULL_URL = "/llms-full.txt";

/** /llms-full.txt: every docs page in sidebar order, then the API reference, as one Markdown text. */
export function llmsFullText(): string {
  const pages = docsPages().flatMap((page) => docMarkdownFor(page.path) ?? []);
  const reference = referenceMarkdownText();
  return `${[...pages, ...(reference ? [reference] : [])].map((text) => text.trimEnd()).join("\n\n---\n\n")}\n`;
}

/** The pages a search engine should know: the docs and the reference (the search page is not one of them). */
export function sitemapXml(origin: string): string {
  const urls = [...docsPages().map((page) => page.url), "/api-reference/"];
  const entries = urls.map((url) => `  <url><loc>${escapeXml(origin + url)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(origin: string): string {
  return ["User-agent: *", "Allow: /", "Disallow: /search", "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
