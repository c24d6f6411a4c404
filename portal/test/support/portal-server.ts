import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const portalDir = fileURLToPath(new URL("../..", import.meta.url));
const serverBuild = `${portalDir}build/server/index.js`;

/** A TCP port of 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
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

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export interface RunningPortal {
  url: string;
  /** Stops the server; resolves once it has exited. */
  stop: () => Promise<void>;
}

/**
 * Starts the BUILT portal (`npm run build -w portal` first) with remix-serve on a free port of
 * 127.0.0.1, `env` added to this process's environment, and resolves once it answers.
 */
export async function startPortal(env: Record<string, string> = {}): Promise<RunningPortal> {
  if (!existsSync(serverBuild)) throw new Error(`No portal build at ${serverBuild}: run \`npm run build -w portal\` first.`);
  const port = await freePort();
  const cli = createRequire(import.meta.url).resolve("@remix-run/serve/dist/cli.js");
  const child = spawn(process.execPath, [cli, serverBuild], {
    cwd: portalDir,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForServer(url, child);
  } catch (error) {
    await stopServer(child);
    throw error;
  }
  return { url, stop: () => stopServer(child) };
}
