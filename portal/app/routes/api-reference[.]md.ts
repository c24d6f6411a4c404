import { markdownResponse } from "~/llms/markdownResponse";
import { referenceMarkdownText } from "~/llms/pages.server";

export function loader() {
  return markdownResponse(referenceMarkdownText());
}
