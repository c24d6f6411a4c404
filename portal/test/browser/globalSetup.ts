import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const portalDir = fileURLToPath(new URL("../..", import.meta.url));
const serverBuild = `${portalDir}build/server/index.js`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The portal server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The portal server did not answer at ${url} within ${timeoutMs} ms`);
}

/** Starts the BUILT portal (`npm run build` first) with the test hooks on, on a free port. */
export default async function globalSetup() {
  if (!existsSync(serverBuild)) throw new Error(`No portal build at ${serverBuild}: run \`npm run build -w portal\` first.`);
  const port = await freePort();
  const cli = createRequire(import.meta.url).resolve("@remix-run/serve/dist/cli.js");
  const child = spawn(process.execPath, [cli, serverBuild], {
    cwd: portalDir,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production", FLUSSO_TEST_HOOKS: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForServer(url, child);
  process.env.PORTAL_TEST_URL = url;
  (globalThis as { __portalServer?: ChildProcess }).__portalServer = child;
}
