import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadDocPage } from "~/docs/loader.server";
import { DocPage, docMeta } from "~/docs/DocPage";

export const loader = ({ request }: LoaderFunctionArgs) => loadDocPage("guides/testing-in-the-sandbox", request);
export const meta = docMeta;
export default DocPage;
