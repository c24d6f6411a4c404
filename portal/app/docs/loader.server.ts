import { CONTENT_LANGUAGE } from "~/layout/site";
import { portalEnv } from "~/config/env.server";
import { markdownUrl } from "./urls";
import { getDoc, getDocsSidebar } from "./content.server";
import { renderMarkdown, type RenderedDoc } from "./markdown";
import { flattenSidebar } from "./sidebar";
import { readTestHook, withTestHook } from "./testHooks.server";

// Hosts and e-mail are fixed at start: a page is rendered once.
const rendered = new Map<string, RenderedDoc>();

function renderDoc(path: string, body: string): RenderedDoc {
  let doc = rendered.get(path);
  if (!doc) {
    const { hosts, supportEmail } = portalEnv.site;
    doc = renderMarkdown(body, { hosts, email: supportEmail });
    rendered.set(path, doc);
  }
  return doc;
}

/**
 * Data for one docs page. The page frame (title, neighbours) comes at once; the rendered
 * body is a promise, so the frame can show while the content loads on demand.
 */
export function loadDocPage(docPath: string | undefined, request: Request) {
  const doc = docPath === undefined ? undefined : getDoc(docPath);
  if (!doc) throw new Response("Not Found", { status: 404, statusText: "Not Found" });
  const { path } = doc;
  const hook = readTestHook(request);
  const pages = flattenSidebar(getDocsSidebar());
  const index = pages.findIndex((page) => page.docPath === path);
  return {
    // Docs pages are written in English; <html lang> follows (see usePageLanguage in root.tsx).
    lang: CONTENT_LANGUAGE,
    doc: { path, title: doc.data.title, description: doc.data.description, markdownUrl: markdownUrl(path) },
    previous: index > 0 ? pages[index - 1] : null,
    next: index >= 0 && index < pages.length - 1 ? pages[index + 1] : null,
    body: withTestHook(hook, () => renderDoc(path, doc.body)),
    crash: hook?.kind === "crash",
  };
}

export type DocPageData = ReturnType<typeof loadDocPage>;
