import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext } from "playwright-core";
import { CHROMIUM_ARGS } from "../../browser/support";

const PORTAL_DIR = fileURLToPath(new URL("../../../", import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningPortal {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Starts the built portal (`npm run build -w portal` first) on a free port with extra environment:
 * the reference's tests point the development host at a stand-in API, which the shared portal
 * that test/browser/globalSetup.ts starts cannot do.
 */
export async function startPortal(env: Record<string, string> = {}): Promise<RunningPortal> {
  const port = await freePort();
  const child: ChildProcess = spawn(join(PORTAL_DIR, "../node_modules/.bin/remix-serve"), ["build/server/index.js"], {
    cwd: PORTAL_DIR,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await fetch(`${url}/llms.txt`);
      break;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`The portal did not start: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** A fresh Chromium profile per call, removed on close. */
export async function launchBrowser(options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {}) {
  const profile = mkdtempSync(join(tmpdir(), "flusso-chromium-"));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: options.viewport ?? { width: 1400, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
