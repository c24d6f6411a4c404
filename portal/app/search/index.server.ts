import { docsPages } from "~/llms/pages.server";
import { buildReferenceModel } from "~/reference/model";
import { openApiDocument } from "~/reference/document.server";
import { operationAnchor } from "~/reference/anchor";
import { search, type SearchEntry } from "./search";

let entries: SearchEntry[] | undefined;

/** The site's pages and the reference's operations, indexed once per server process. */
function searchEntries(): SearchEntry[] {
  entries ??= [...pageEntries(), ...operationEntries()];
  return entries;
}

export function searchSite(query: string, limit?: number) {
  return search(searchEntries(), query, limit);
}

function pageEntries(): SearchEntry[] {
  return docsPages().map((page) => ({
    kind: "page",
    title: page.data.title,
    url: page.url,
    excerpt: page.data.description,
    keywords: [...page.body.matchAll(/^#{2,3}\s+(.+)$/gm)].map((m) => m[1]).join(" "),
    text: plainText(page.body),
  }));
}

function operationEntries(): SearchEntry[] {
  const document = openApiDocument();
  if (!document) return [];
  return buildReferenceModel(document).tags.flatMap((tag) =>
    tag.operations.map((operation) => ({
      kind: "operation" as const,
      title: operation.summary,
      url: `/api-reference/#${operationAnchor(operation.id)}`,
      excerpt: `${operation.method} ${operation.webhook ? "webhook" : operation.path}`,
      keywords: `${operation.id} ${tag.name} ${operation.method}`,
      text: [operation.description, ...operation.parameters.map((p) => p.name)].filter(Boolean).join(" "),
    }))
  );
}

/** Markdown to searchable text: code fences, link targets and markup characters removed. */
function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/[#*_`>|[\]:-]+/g, " ")
    .replace(/\s+/g, " ");
}
