import type { LinksFunction, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRevalidator,
  useRouteError,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { announcementScript } from "~/behaviour/announcement";
import { colorModeScript } from "~/behaviour/colorMode";
import { environmentScript } from "~/behaviour/environment";
import { useReloadOnFailedNavigation } from "~/behaviour/reloadOnFailedNavigation";
import { getDocsSidebar } from "~/docs/content.server";
import { CRASH_TITLE, CrashScreen } from "~/layout/CrashScreen";
import { NOT_FOUND_TITLE, NotFound } from "~/layout/NotFound";
import { SiteShell } from "~/layout/SiteShell";
import { ANNOUNCEMENT, SITE_LANGUAGE, SITE_TITLE, type PageHandle } from "~/layout/site";
import { portalEnv } from "~/config/env.server";
import { useSiteData } from "~/layout/useSiteData";
import { ON_SERVER } from "~/reference/onServer";
import stylesheet from "~/styles/site.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = ({ error }) => [
  { title: error ? (isRouteErrorResponse(error) && error.status === 404 ? NOT_FOUND_TITLE : CRASH_TITLE) : SITE_TITLE },
];

export function loader() {
  return { site: portalEnv.site, sidebar: getDocsSidebar() };
}

// Settings and sidebar do not change between pages: no need to fetch them on every navigation.
export const shouldRevalidate = () => false;

// Theme, environment and announcement are applied before the first paint, so nothing flashes. The script runs once, as
// the server wrote it: the browser's render keeps it as it is (React leaves an element that sets its inner HTML as it
// finds it when hydrating), so its text is not in the browser's JavaScript too.
const headScript = ON_SERVER ? colorModeScript + environmentScript + announcementScript(ANNOUNCEMENT.id) : "";

/**
 * The page's language: the deepest route that names one, in its `handle` or its loader data (every docs page's
 * loader says English), else the site's.
 */
function usePageLanguage(): string {
  const languages = useMatches().flatMap((match) => {
    const data = match.data as { lang?: unknown } | null | undefined;
    return (match.handle as PageHandle | undefined)?.lang ?? (typeof data?.lang === "string" ? data.lang : []);
  });
  return languages.at(-1) ?? SITE_LANGUAGE;
}

export function Layout({ children }: { children: ReactNode }) {
  const lang = usePageLanguage();
  return (
    <html lang={lang} dir="ltr" data-theme="light" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <script dangerouslySetInnerHTML={{ __html: headScript }} suppressHydrationWarning />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const { site, sidebar } = useSiteData();
  return (
    <SiteShell hosts={site.hosts} demoCompanyId={site.demoCompanyId} supportEmail={site.supportEmail} sidebar={sidebar}>
      {children}
    </SiteShell>
  );
}

export default function App() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  const reloading = useReloadOnFailedNavigation(error);
  if (reloading) return null;
  return (
    <Shell>
      {isRouteErrorResponse(error) && error.status === 404 ? (
        <NotFound />
      ) : (
        <CrashScreen error={error} onTryAgain={() => revalidator.revalidate()} />
      )}
    </Shell>
  );
}
