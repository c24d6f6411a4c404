import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadDocPage } from "./loader.server";
import { DocPage, docMeta } from "./DocPage";
import { docPathOf } from "./urls";

/** The route module of every docs page (vite.config.ts gives each page of content/pages.ts a route to it). */
export const loader = ({ request }: LoaderFunctionArgs) => loadDocPage(docPathOf(new URL(request.url).pathname), request);
export const meta = docMeta;
export default DocPage;
