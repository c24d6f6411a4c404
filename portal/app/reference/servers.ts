import type { EnvironmentHosts } from "~/behaviour/environment";
import type { OpenApiDocument } from "./openapi";

/**
 * The document with these hosts in its `servers` (development first, then production), each keeping its path and
 * description: what the API serves at `/api/v1/openapi.json` when it runs with the same FLUSSO_HOST_* settings.
 */
export function withHosts(document: OpenApiDocument, hosts: EnvironmentHosts): OpenApiDocument {
  const [development, production] = document.servers ?? [];
  const basePath = new URL(development?.url ?? "/", "https://placeholder.invalid").pathname.replace(/\/$/, "");
  return {
    ...document,
    servers: [
      { url: `${hosts.development}${basePath}`, description: development?.description ?? "Development" },
      { url: `${hosts.production}${basePath}`, description: production?.description ?? "Production" },
    ],
  };
}
