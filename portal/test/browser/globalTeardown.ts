import type { RunningPortal } from "../support/portal-server";

export default async function globalTeardown() {
  await (globalThis as { __portal?: RunningPortal }).__portal?.stop();
}
