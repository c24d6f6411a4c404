import type { EnvironmentHosts } from "~/behaviour/environment";
import { DEFAULT_HOSTS, DEFAULT_SUPPORT_EMAIL, type SiteConfig } from "~/layout/site";

/**
 * Every variable the portal's server reads, checked once when the server build is loaded: a wrong value stops
 * `remix-serve` at start with a message naming the variable, instead of a page that renders with a bad host.
 * Unset or empty means the default. `PORT` is read by remix-serve itself, which silently listens elsewhere when it is
 * not a number: it is checked here for that reason.
 */
export type PortalEnv = {
  site: SiteConfig;
  /** FLUSSO_TEST_HOOKS=1: the `?__test=` hooks of the browser tests (docs/testHooks.server.ts); never in a deployment. */
  testHooks: boolean;
};

export class PortalEnvError extends Error {
  override name = "PortalEnvError";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Variables = Record<string, string | undefined>;

/** An http(s) URL without a trailing slash or a path: integrators append `/api/v1` themselves. */
function host(env: Variables, name: string, fallback: string): string {
  const raw = env[name];
  if (!raw) return fallback;
  const value = raw.replace(/\/+$/, "");
  if (!URL.canParse(value) || !["http:", "https:"].includes(new URL(value).protocol)) {
    throw new PortalEnvError(`${name} must be an http:// or https:// URL such as ${fallback}, got "${raw}"`);
  }
  return value;
}

function hosts(env: Variables): EnvironmentHosts {
  return {
    development: host(env, "FLUSSO_HOST_DEVELOPMENT", DEFAULT_HOSTS.development),
    production: host(env, "FLUSSO_HOST_PRODUCTION", DEFAULT_HOSTS.production),
  };
}

function supportEmail(env: Variables): string {
  const raw = env.FLUSSO_SUPPORT_EMAIL;
  if (!raw) return DEFAULT_SUPPORT_EMAIL;
  if (!EMAIL.test(raw))
    throw new PortalEnvError(`FLUSSO_SUPPORT_EMAIL must be an e-mail address such as ${DEFAULT_SUPPORT_EMAIL}, got "${raw}"`);
  return raw;
}

function demoCompanyId(env: Variables): string | null {
  const raw = env.FLUSSO_DEMO_COMPANY_ID;
  if (!raw) return null;
  if (!UUID.test(raw)) {
    throw new PortalEnvError(
      `FLUSSO_DEMO_COMPANY_ID must be a company id (a UUID such as 3f2b8c1e-6a4d-4e0f-9b7a-2c5d8e1f0a93), got "${raw}"`,
    );
  }
  return raw.toLowerCase();
}

function testHooks(env: Variables): boolean {
  const raw = env.FLUSSO_TEST_HOOKS;
  if (!raw || raw === "0") return false;
  if (raw === "1") return true;
  throw new PortalEnvError(`FLUSSO_TEST_HOOKS must be 1 (on) or 0 (off), got "${raw}"`);
}

function checkPort(env: Variables, name: string): void {
  const raw = env[name];
  if (raw && !(/^\d{1,5}$/.test(raw) && Number(raw) <= 65535)) {
    throw new PortalEnvError(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  }
}

export function loadPortalEnv(env: Variables): PortalEnv {
  // `npm start -w portal` and the root `npm start` pass PORTAL_PORT on as PORT: a wrong one is named as the user wrote it.
  checkPort(env, "PORTAL_PORT");
  checkPort(env, "PORT");
  return {
    site: { hosts: hosts(env), supportEmail: supportEmail(env), demoCompanyId: demoCompanyId(env) },
    testHooks: testHooks(env),
  };
}

/** The portal's settings, read once when the server starts. */
export const portalEnv: PortalEnv = loadPortalEnv(process.env);
