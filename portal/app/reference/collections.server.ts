import { portalEnv } from "~/config/env.server";
import { insomniaExport, postmanCollection } from "./collections";
import { buildReferenceModel } from "./model";
import { publishedDocument } from "./published.server";

function download(name: string, content: unknown): Response {
  return new Response(`${JSON.stringify(content, null, 2)}\n`, {
    headers: { "Content-Type": "application/json; charset=utf-8", "Content-Disposition": `attachment; filename="${name}"` },
  });
}

const missing = () => new Response("The OpenAPI document has not been generated yet.", { status: 404 });

/** Built from the document of the portal's build (descriptions stay Markdown), with the site's hosts. */
export function collectionResponse(kind: "postman" | "insomnia"): Response {
  const document = publishedDocument();
  if (!document) return missing();
  const model = buildReferenceModel(document);
  const { hosts } = portalEnv.site;
  return kind === "postman"
    ? download("flusso.postman_collection.json", postmanCollection(model, hosts, document))
    : download("flusso.insomnia.json", insomniaExport(model, hosts));
}
