import type { LoaderFunctionArgs } from "@remix-run/node";
import { robotsTxt } from "~/llms/pages.server";

export function loader({ request }: LoaderFunctionArgs) {
  return new Response(robotsTxt(new URL(request.url).origin), { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
