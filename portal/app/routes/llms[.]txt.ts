import type { LoaderFunctionArgs } from "@remix-run/node";
import { llmsTxtFor } from "~/llms/pages.server";

export function loader({ request }: LoaderFunctionArgs) {
  return new Response(llmsTxtFor(new URL(request.url).origin), { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
