import { docsPages } from "~/llms/pages.server";
import { buildReferenceModel } from "~/reference/model";
import { openApiDocument } from "~/reference/document.server";
import { operationAnchor } from "~/reference/anchor";
import { plainText, sectionEntries } from "./sections";
import { searchIndex, searchIndexed, type SearchEntry, type SearchIndex } from "./search";

let index: SearchIndex | undefined;

/** The site's pages, their sections and the reference's operations, indexed once per server process. */
function siteIndex(): SearchIndex {
  index ??= searchIndex([...pageEntries(), ...operationEntries()]);
  return index;
}

export function searchSite(query: string, limit?: number) {
  return searchIndexed(siteIndex(), query, limit);
}

function pageEntries(): SearchEntry[] {
  return docsPages().flatMap((page) => [
    {
      kind: "page" as const,
      title: page.data.title,
      url: page.url,
      excerpt: page.data.description,
      keywords: [...page.body.matchAll(/^#{2,3}\s+(.+)$/gm)].map((m) => m[1]).join(" "),
      text: plainText(page.body),
    },
    ...sectionEntries(page.data.title, page.url, page.body),
  ]);
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
    })),
  );
}
