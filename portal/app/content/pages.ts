/**
 * The docs pages, one line each: the Markdown file under app/content/ without `.md`, which is also the page's URL
 * (`index` is `/`, see docUrl). vite.config.ts makes a route of each, and the build stops when a line has no file or a
 * file has no line. Where a page shows in the sidebar (and so in the sitemap and /llms.txt) is its front matter's
 * `sidebar_position`, not its place here.
 */
export const DOC_PAGES: readonly string[] = [
  "index",
  "authentication",
  "basics/common-terms",
  "basics/errors",
  "basics/events",
  "basics/expand-results",
  "basics/filter-results",
  "basics/idempotency",
  "basics/paginate-results",
  "basics/sort-results",
  "basics/webhook",
  "changelog",
  "client-libraries",
  "faqs",
  "guides/bulk-payments",
  "guides/chart-of-accounts-sync",
  "guides/debugging-requests",
  "guides/numbering-documents",
  "guides/reading-f24-forms",
  "guides/sending-an-e-invoice",
  "guides/sharing-an-invoice",
  "guides/testing-in-the-sandbox",
  "openapi-specification",
  "quickstarts/quickstarts-step-by-step",
];
