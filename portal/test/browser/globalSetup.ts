import { startPortal, type RunningPortal } from "../support/portal-server";

/** Starts the BUILT portal (`npm run build` first) with the test hooks on, on a free port. */
export default async function globalSetup() {
  const portal = await startPortal({ FLUSSO_TEST_HOOKS: "1" });
  process.env.PORTAL_TEST_URL = portal.url;
  (globalThis as { __portal?: RunningPortal }).__portal = portal;
}
