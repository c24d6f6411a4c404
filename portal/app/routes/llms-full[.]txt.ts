import { llmsFullText } from "~/llms/pages.server";

export function loader() {
  return new Response(llmsFullText(), { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
