import type { LoaderFunctionArgs } from "@remix-run/node";
import { sitemapXml } from "~/llms/pages.server";

export function loader({ request }: LoaderFunctionArgs) {
  return new Response(sitemapXml(new URL(request.url).origin), { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}
