import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadDocPage } from "~/docs/loader.server";
import { DocPage, docMeta } from "~/docs/DocPage";

export const loader = ({ request }: LoaderFunctionArgs) => loadDocPage("guides/reading-f24-forms", request);
export const meta = docMeta;
export default DocPage;
