import type { ChildProcess } from "node:child_process";

export default async function globalTeardown() {
  const child = (globalThis as { __portalServer?: ChildProcess }).__portalServer;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
