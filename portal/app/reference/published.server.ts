import { portalEnv } from "~/config/env.server";
import { openApiDocument } from "./document.server";
import type { OpenApiDocument } from "./openapi";
import { withHosts } from "./servers";

/**
 * The OpenAPI document as the site hands it out (downloads, Postman and Insomnia files): its `servers` are the
 * site's own hosts, so the file names the same development host as every page (the local API when `npm start`
 * set FLUSSO_HOST_DEVELOPMENT), under the document's base path, as the API's own copy does.
 */
export function publishedDocument(): OpenApiDocument | undefined {
  const document = openApiDocument();
  return document && withHosts(document, portalEnv.site.hosts);
}
