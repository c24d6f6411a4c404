import { DEFAULT_HOSTS, DEFAULT_SUPPORT_EMAIL, type SiteConfig } from "./site";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const trimSlash = (host: string) => host.replace(/\/+$/, "");

/** Read on the server at each request from the environment, and handed to the client by the root loader. */
export function getSiteConfig(): SiteConfig {
  return {
    hosts: {
      development: trimSlash(process.env.FLUSSO_HOST_DEVELOPMENT || DEFAULT_HOSTS.development),
      production: trimSlash(process.env.FLUSSO_HOST_PRODUCTION || DEFAULT_HOSTS.production),
    },
    supportEmail: process.env.FLUSSO_SUPPORT_EMAIL || DEFAULT_SUPPORT_EMAIL,
    demoCompanyId: UUID.test(process.env.FLUSSO_DEMO_COMPANY_ID ?? "") ? process.env.FLUSSO_DEMO_COMPANY_ID!.toLowerCase() : null,
  };
}
