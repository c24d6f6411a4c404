import type { EnvironmentHosts } from "~/behaviour/environment";

export const SITE_TITLE = "Flusso Developers";

/**
 * The site's own words (bars, menus, labels) are Italian; the docs and the API's descriptions are English. A page's
 * `<html lang>` is its content's language (a route says it in its `handle`), and the Italian chrome says `lang="it"`.
 */
export const SITE_LANGUAGE = "it";
export const CONTENT_LANGUAGE = "en";
export type PageHandle = {
  lang?: string;
  /** The page is the same for every visitor: rendered on its first request, then served as it was (renderOnce.server.ts). */
  renderOnce?: boolean;
};

export const DEFAULT_HOSTS: EnvironmentHosts = {
  development: "https://api.sandbox.flusso.example",
  production: "https://api.flusso.example",
};
export const DEFAULT_SUPPORT_EMAIL = "developers@flusso.example";

/** Site settings read from the server's environment (see config/env.server.ts). */
export type SiteConfig = {
  hosts: EnvironmentHosts;
  supportEmail: string;
  /** The demo company of the development host, when the site knows it (`npm start`): try-it and samples start from it. */
  demoCompanyId: string | null;
};

/** The docs have one version today; it is still remembered per plugin, as Docusaurus does. */
export const DOCS_PLUGIN_ID = "default";
export const DOCS_VERSION = "1.2.0";

/** Change the id whenever the text changes: visitors who dismissed the old one see the new one. */
export const ANNOUNCEMENT = {
  id: "api-1-2-0",
  text: "È disponibile la versione 1.2 dell'API: filtri, ordinamento ed espansioni su tutte le liste.",
  link: { label: "Leggi il changelog", href: "/changelog" },
};

export const ENVIRONMENT_LABELS = { development: "Sviluppo", production: "Produzione" } as const;

export type FooterLink = { label: string; href: string };
export type FooterColumn = { title: string; links: FooterLink[] };

export const FOOTER_COLUMNS: FooterColumn[] = [
  {
    title: "Documentazione",
    links: [
      { label: "Per iniziare", href: "/" },
      { label: "Autenticazione", href: "/authentication/" },
      { label: "Quickstart", href: "/quickstarts/quickstarts-step-by-step" },
      { label: "Errori", href: "/basics/errors" },
      { label: "Changelog", href: "/changelog" },
    ],
  },
  {
    title: "Prodotto",
    links: [
      { label: "API Reference", href: "/api-reference/" },
      { label: "Specifica OpenAPI", href: "/openapi-specification" },
      { label: "FAQ", href: "/faqs" },
      { label: "Sito di Flusso", href: "https://www.flusso.example" },
      { label: "Stato del servizio", href: "https://status.flusso.example" },
    ],
  },
  {
    title: "Community",
    links: [
      { label: "GitHub", href: "https://github.com/flusso" },
      { label: "LinkedIn", href: "https://www.linkedin.com/company/flusso" },
      { label: "X", href: "https://x.com/flusso" },
      { label: "YouTube", href: "https://www.youtube.com/@flusso" },
    ],
  },
  {
    title: "Legale",
    links: [
      { label: "Cookie policy", href: "https://www.flusso.example/cookie-policy" },
      { label: "Termini di servizio", href: "https://www.flusso.example/termini" },
      { label: "Privacy policy", href: "https://www.flusso.example/privacy" },
    ],
  },
];
