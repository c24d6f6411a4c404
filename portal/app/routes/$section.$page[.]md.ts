import type { LoaderFunctionArgs } from "@remix-run/node";
import { markdownResponse } from "~/llms/markdownResponse";
import { docMarkdownFor } from "~/llms/pages.server";

/** `/<section>/<page>.md`: the Markdown version of a nested docs page, e.g. /basics/errors.md. */
export function loader({ params }: LoaderFunctionArgs) {
  return markdownResponse(docMarkdownFor(`${params.section}/${params.page}`));
}
