import { getSiteConfig } from "~/layout/site.server";
import { openApiDocument } from "./document.server";
import type { OpenApiDocument } from "./openapi";

/**
 * The OpenAPI document as the site hands it out (downloads, Postman and Insomnia files): its `servers` are the
 * site's own hosts, so the file names the same development host as every page (the local API when `npm start`
 * set FLUSSO_HOST_DEVELOPMENT), under the document's base path.
 */
export function publishedDocument(): OpenApiDocument | undefined {
  const document = openApiDocument();
  if (!document) return undefined;
  const { hosts } = getSiteConfig();
  const basePath = new URL(document.servers?.[0]?.url ?? "/", "https://placeholder.invalid").pathname.replace(/\/$/, "");
  return {
    ...document,
    servers: [
      { url: `${hosts.development}${basePath}`, description: "Development" },
      { url: `${hosts.production}${basePath}`, description: "Production" },
    ],
  };
}
