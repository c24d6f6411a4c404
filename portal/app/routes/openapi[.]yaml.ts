import { stringify } from "yaml";
import { publishedDocument } from "~/reference/published.server";

export function loader() {
  const document = publishedDocument();
  if (!document) return new Response("The OpenAPI document has not been generated yet.", { status: 404 });
  // aliasDuplicateObjects off: YAML anchors would confuse tools that import the file.
  return new Response(stringify(document, { aliasDuplicateObjects: false }), {
    headers: { "Content-Type": "application/yaml; charset=utf-8", "Content-Disposition": 'inline; filename="openapi.yaml"' },
  });
}
