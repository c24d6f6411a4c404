import type { LoaderFunctionArgs } from "@remix-run/node";
import type { PageHandle } from "~/layout/site";
import { loadDocPage } from "./loader.server";
import { DocPage, docMeta } from "./DocPage";
import { docPathOf } from "./urls";

/** The route module of every docs page (vite.config.ts gives each page of content/pages.ts a route to it). */
export const loader = ({ request }: LoaderFunctionArgs) => loadDocPage(docPathOf(new URL(request.url).pathname), request);
export const meta = docMeta;
// A docs page is the Markdown of the build with the hosts of the server's start: the same for everyone (the test hooks
// come with a query string, which is always rendered).
export const handle: PageHandle = { renderOnce: true };
export default DocPage;
