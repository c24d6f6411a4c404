import { marked, type Token } from "marked";
import { createSlugger } from "~/docs/markdown";
import type { SearchEntry } from "./search";

/**
 * One entry per `##`/`###` heading, with the text up to the next heading, pointing at the heading's anchor: a search
 * for an error code lands on that code. Ids come from the slugger the page renderer uses, over the same headings.
 */
export function sectionEntries(pageTitle: string, pageUrl: string, body: string): SearchEntry[] {
  const slug = createSlugger();
  const sections: SearchEntry[] = [];
  let current: SearchEntry | undefined;
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === "heading" && token.depth >= 2) {
        const title = plainText(token.text).trim();
        const id = slug(title);
        current = undefined;
        if (token.depth > 3) continue;
        current = { kind: "section", title, url: `${pageUrl}#${id}`, excerpt: pageTitle, keywords: "", text: "" };
        sections.push(current);
      } else if (current && token.type !== "space") {
        current.text += ` ${plainText(token.raw)}`;
      }
    }
  };
  walk(marked.lexer(body));
  return sections;
}

/** Markdown to searchable text: code fences, link targets and markup characters removed. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/[#*`>|[\]:]+/g, " ")
    .replace(/\s+/g, " ");
}
