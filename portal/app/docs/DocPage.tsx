import type { MetaFunction } from "@remix-run/node";
import { Await, Link, useLoaderData } from "@remix-run/react";
import { Suspense, useEffect, useSyncExternalStore } from "react";
import { useDocsPreferredVersion } from "~/behaviour/docsPreferredVersion";
import { usePrefetch } from "~/behaviour/prefetch";
import { DocsLayout } from "~/layout/DocsLayout";
import { LoadOnDemand } from "~/layout/LoadOnDemand";
import { DOCS_PLUGIN_ID, DOCS_VERSION, SITE_LANGUAGE, SITE_TITLE } from "~/layout/site";
import { TableOfContents, TableOfContentsMobile } from "~/layout/TableOfContents";
import { useSiteData } from "~/layout/useSiteData";
import { DocContent } from "./DocContent";
import type { loadDocPage } from "./loader.server";
import type { SidebarLink } from "./sidebar";

type Loader = () => ReturnType<typeof loadDocPage>;

export const docMeta: MetaFunction<Loader> = ({ data }) => {
  if (!data) return [{ title: SITE_TITLE }];
  return [
    { title: `${data.doc.title} | ${SITE_TITLE}` },
    { name: "description", content: data.doc.description },
    { property: "og:title", content: data.doc.title },
  ];
};

const subscribeToNothing = () => () => {};

/** Test hook only (see testHooks.server.ts): throws during render once the page is hydrated. */
function useTestCrash(crash: boolean) {
  // `crash` in the render that follows hydration, false on the server and while hydrating. Without the hook both are
  // false: no update reaches the page's Suspense boundaries while they hydrate.
  const crashNow = useSyncExternalStore(
    subscribeToNothing,
    () => crash,
    () => false,
  );
  if (crashNow) {
    throw new Error("The page threw while rendering (test hook).", { cause: new Error("The test asked for a crash.") });
  }
}

function PageNavigation({ previous, next }: { previous: SidebarLink | null; next: SidebarLink | null }) {
  const prefetch = usePrefetch("viewport");
  if (!previous && !next) return null;
  return (
    <nav className="pagination-nav" aria-label="Pagine della documentazione" lang={SITE_LANGUAGE}>
      {previous && (
        <Link to={previous.href} prefetch={prefetch} className="pagination-link">
          <span className="pagination-label">Precedente</span>
          <span className="pagination-title">« {previous.label}</span>
        </Link>
      )}
      {next && (
        <Link to={next.href} prefetch={prefetch} className="pagination-link pagination-next">
          <span className="pagination-label">Successiva</span>
          <span className="pagination-title">{next.label} »</span>
        </Link>
      )}
    </nav>
  );
}

/** Every docs route renders this: the sidebar, then the page, loaded on demand, with its TOC. */
export function DocPage() {
  const { doc, body, previous, next, crash } = useLoaderData<Loader>();
  const { sidebar } = useSiteData();
  const { savePreferredVersion } = useDocsPreferredVersion(DOCS_PLUGIN_ID);
  useTestCrash(crash);

  useEffect(() => savePreferredVersion(DOCS_VERSION), [savePreferredVersion]);

  return (
    <DocsLayout sidebar={sidebar}>
      <div className="doc-page">
        <article className="doc-article">
          <header className="doc-header">
            <div className="doc-header-meta" lang={SITE_LANGUAGE}>
              <span className="badge badge-version">Versione {DOCS_VERSION}</span>
              <a className="doc-markdown-link" href={doc.markdownUrl} type="text/markdown">
                Markdown
              </a>
            </div>
            <h1>{doc.title}</h1>
          </header>
          {/* Keyed by page: a new page gets a new boundary, so its spinner shows instead of the old page. */}
          <LoadOnDemand key={doc.path} resolve={body}>
            {({ blocks, toc }) => (
              <>
                <TableOfContentsMobile items={toc} />
                <DocContent blocks={blocks} />
              </>
            )}
          </LoadOnDemand>
          <PageNavigation previous={previous} next={next} />
        </article>
        {/* The article already shows the spinner and any failure; the TOC just waits quietly. */}
        <Suspense key={doc.path} fallback={null}>
          <Await resolve={body} errorElement={<></>}>
            {({ toc }) => <TableOfContents items={toc} />}
          </Await>
        </Suspense>
      </div>
    </DocsLayout>
  );
}
