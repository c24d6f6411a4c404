import { publishedDocument } from "~/reference/published.server";

export function loader() {
  const document = publishedDocument();
  if (!document) return new Response("The OpenAPI document has not been generated yet.", { status: 404 });
  return new Response(JSON.stringify(document, null, 2), {
    headers: { "Content-Type": "application/json; charset=utf-8", "Content-Disposition": 'inline; filename="openapi.json"' },
  });
}
