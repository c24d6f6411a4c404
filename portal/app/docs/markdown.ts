import { Marked, Renderer, type Token, type Tokens, type TokensList } from "marked";
import { parse as parseYaml } from "yaml";
import type { EnvironmentHosts } from "~/behaviour/environment";
import { escapeHtml, highlightCode } from "./highlight";
import { fillEnvironmentHosts, HOST_PLACEHOLDER, HOST_TOKEN, hostMarkup, isSampleLanguage, renderSample, type CodeSample } from "./samples";

export type FrontMatter = {
  title: string;
  description: string;
  sidebar_label: string;
  sidebar_position: number;
  sidebar_category?: string;
};

export const ADMONITION_TYPES = ["note", "tip", "info", "warning", "danger"] as const;
export type AdmonitionType = (typeof ADMONITION_TYPES)[number];

/** A rendered page is a list of blocks: plain HTML, plus the parts React makes interactive. */
export type DocBlock =
  | { kind: "html"; html: string }
  | { kind: "samples"; samples: CodeSample[] }
  | { kind: "admonition"; type: AdmonitionType; title: string; blocks: DocBlock[] };

export type TocItem = { id: string; text: string; level: 2 | 3 };

export type RenderedDoc = { blocks: DocBlock[]; toc: TocItem[] };

export type RenderOptions = { hosts: EnvironmentHosts; email: string };

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export function parseFrontMatter(source: string, fallbackTitle = ""): { data: FrontMatter; body: string } {
  const match = FRONT_MATTER.exec(source);
  const raw = (match ? parseYaml(match[1]) : {}) ?? {};
  const title = String(raw.title ?? fallbackTitle);
  return {
    data: {
      title,
      description: String(raw.description ?? ""),
      sidebar_label: String(raw.sidebar_label ?? title),
      sidebar_position: Number.isFinite(Number(raw.sidebar_position)) ? Number(raw.sidebar_position) : Number.MAX_SAFE_INTEGER,
      ...(raw.sidebar_category ? { sidebar_category: String(raw.sidebar_category) } : {}),
    },
    body: match ? source.slice(match[0].length) : source,
  };
}

/**
 * A fence whose info string names a file, "```ts file=examples/integrator.ts" followed by the closing fence, gets that
 * file's text: a page can show a program the tests compile and run, and never a stale copy of it. `files` maps paths
 * relative to `app/content/` to their text; naming a file that is not there is an error.
 */
export function includeFiles(body: string, files: Record<string, string>, page: string): string {
  return body.replace(/^```(\S+) file=(\S+)\n```$/gm, (_, language: string, path: string) => {
    const text = files[path];
    if (text === undefined) throw new Error(`${page}.md includes ${path}, which is not in app/content/`);
    return `\`\`\`${language}\n${text.trimEnd()}\n\`\`\``;
  });
}

/** GitHub-style heading ids: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

export function createSlugger() {
  const seen = new Map<string, number>();
  return (text: string) => {
    const base = slugify(text) || "section";
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

type AdmonitionToken = Tokens.Generic & { type: "admonition"; admonition: AdmonitionType; title: string; tokens: Token[] };

const ADMONITION_TITLES: Record<AdmonitionType, string> = {
  note: "Nota",
  tip: "Suggerimento",
  info: "Info",
  warning: "Attenzione",
  danger: "Pericolo",
};

function createMarked(toc: TocItem[], hosts: EnvironmentHosts) {
  const slug = createSlugger();
  const marked = new Marked({ gfm: true });
  marked.use({
    extensions: [
      {
        name: "admonition",
        level: "block",
        start: (src: string) => src.match(/^:::/m)?.index,
        tokenizer(src: string) {
          const match = /^:::(note|tip|info|warning|danger)[ \t]*([^\n]*)\n([\s\S]*?)\n:::[ \t]*(?:\n|$)/.exec(src);
          if (!match) return undefined;
          const token: AdmonitionToken = {
            type: "admonition",
            raw: match[0],
            admonition: match[1] as AdmonitionType,
            title: match[2].trim(),
            tokens: [],
          };
          this.lexer.blockTokens(match[3], token.tokens);
          return token;
        },
        renderer(token) {
          const t = token as AdmonitionToken;
          return admonitionHtml(t.admonition, t.title, this.parser.parse(t.tokens));
        },
      },
    ],
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        if (depth === 1) return `<h1>${inner}</h1>\n`;
        const text = plainText(inner);
        const id = slug(text);
        if (depth === 2 || depth === 3) toc.push({ id, text, level: depth });
        return (
          `<h${depth} id="${id}" class="anchor">${inner}` +
          `<a class="hash-link" href="#${id}" aria-label="Link diretto a ${escapeHtml(text)}">#</a></h${depth}>\n`
        );
      },
      code({ text, lang }) {
        const language = lang?.trim().split(/\s+/)[0];
        return (
          `<div class="code-block"><pre tabindex="0"><code class="hljs${language ? ` language-${escapeHtml(language)}` : ""}">` +
          `${highlightCode(text, language)}</code></pre>` +
          `<button type="button" class="copy-button" data-copy-code>Copia</button></div>\n`
        );
      },
      table(token) {
        // Wide tables scroll on their own instead of widening the page on phones (focusable, so keyboards can scroll).
        return `<div class="table-wrapper" tabindex="0">${Renderer.prototype.table.call(this, token)}</div>\n`;
      },
      link({ href, title, tokens }) {
        const inner = this.parser.parseInline(tokens);
        const external = /^https?:\/\//.test(href) && !href.startsWith(hosts.development);
        // The site's JSON and YAML files (the OpenAPI document, Postman and Insomnia files) are to be saved:
        // without the attribute the browser shows the JSON in a tab instead.
        const file = /^\/[^?#]*\.(json|ya?ml)(?:[?#]|$)/i.test(href);
        const attrs = external ? ` target="_blank" rel="noopener noreferrer"` : file ? " download" : "";
        return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ""}${attrs}>${inner}</a>`;
      },
    },
  });
  return marked;
}

function admonitionHtml(type: AdmonitionType, title: string, inner: string) {
  return (
    `<div class="admonition admonition-${type}" role="note"><p class="admonition-title">` +
    `${escapeHtml(title || ADMONITION_TITLES[type])}</p>${inner}</div>\n`
  );
}

/** Renders a page body (front matter already removed) into blocks and its h2–h3 table of contents. */
export function renderMarkdown(body: string, { hosts, email }: RenderOptions): RenderedDoc {
  const toc: TocItem[] = [];
  const marked = createMarked(toc, hosts);
  const source = fillEnvironmentHosts(body, hosts).split(HOST_PLACEHOLDER).join(HOST_TOKEN).split("{{email}}").join(email);
  const tokens = marked.lexer(source);
  // The walker below is synchronous: walkTokens' list of its results holds no promise to wait for.
  void marked.walkTokens(tokens, (token) => {
    // A host inside an attribute cannot hold the per-environment markup: use the default one.
    if (token.type === "link" || token.type === "image") token.href = token.href.split(HOST_TOKEN).join(hosts.development);
  });
  // The page frame shows the front matter title as the h1; a leading h1 in the body would repeat it.
  const first = tokens.findIndex((token) => token.type !== "space");
  if (first >= 0 && tokens[first].type === "heading" && (tokens[first] as Tokens.Heading).depth === 1) tokens.splice(first, 1);
  const withHosts = (html: string) => html.split(HOST_TOKEN).join(hostMarkup(hosts));

  // Blocks are produced in document order, so heading ids and the TOC come out in order too.
  const toBlocks = (list: Token[]): DocBlock[] => {
    const blocks: DocBlock[] = [];
    let pending: Token[] = [];
    const flush = () => {
      if (pending.length === 0) return;
      const html = marked.parser(Object.assign(pending, { links: tokens.links }) as TokensList);
      blocks.push({ kind: "html", html: withHosts(html) });
      pending = [];
    };
    for (let i = 0; i < list.length; i++) {
      const token = list[i];
      if (token.type === "admonition") {
        flush();
        const t = token as AdmonitionToken;
        blocks.push({
          kind: "admonition",
          type: t.admonition,
          title: t.title || ADMONITION_TITLES[t.admonition],
          blocks: toBlocks(t.tokens),
        });
      } else if (token.type === "code" && isSampleLanguage(token.lang)) {
        flush();
        const samples: CodeSample[] = [];
        // A group is a run of sample blocks; blank lines between them do not break it.
        for (; i < list.length; i++) {
          const next = list[i];
          if (next.type === "space") continue;
          if (next.type !== "code" || !isSampleLanguage(next.lang)) break;
          const code = next.text.split(HOST_TOKEN).join(HOST_PLACEHOLDER);
          samples.push(renderSample(next.lang, code, hosts));
        }
        i--;
        blocks.push({ kind: "samples", samples });
      } else {
        pending.push(token);
      }
    }
    flush();
    return blocks;
  };

  return { blocks: toBlocks(tokens), toc };
}
