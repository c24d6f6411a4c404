import type { LoaderFunctionArgs } from "@remix-run/node";
import { markdownResponse } from "~/llms/markdownResponse";
import { docMarkdownFor } from "~/llms/pages.server";

/** `/<page>.md`: the Markdown version of a top-level docs page (`/index.md` is the home page). */
export function loader({ params }: LoaderFunctionArgs) {
  return markdownResponse(docMarkdownFor(params.page ?? ""));
}
