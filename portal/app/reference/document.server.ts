import { marked } from "marked";
import { buildReferenceModel, type ReferenceModel } from "./model";
import type { OpenApiDocument } from "./openapi";

// The server generates this file (`npm run openapi`); a glob rather than an import keeps the
// portal building while the document does not exist yet.
const generated = import.meta.glob<OpenApiDocument>("/openapi/openapi.json", { eager: true, import: "default" });

export function openApiDocument(): OpenApiDocument | undefined {
  return generated["/openapi/openapi.json"];
}

let cached: ReferenceModel | null | undefined;

/** The reference's view model, built once per server process: the document is part of the build. */
export function referenceModel(): ReferenceModel | null {
  if (cached === undefined) {
    const document = openApiDocument();
    cached = document ? buildReferenceModel(document, renderMarkdown) : null;
  }
  return cached;
}

/** One-paragraph texts (most descriptions) render inline, so they fit in a <summary> or a table cell. */
export function renderMarkdown(markdown: string): string {
  const text = markdown.trim();
  const isBlock = /\n\s*\n|^\s*([-*+] |\d+\. |#|>|```|\|)/m.test(text);
  return isBlock ? marked.parse(text, { async: false, gfm: true }) : marked.parseInline(text, { async: false, gfm: true });
}
