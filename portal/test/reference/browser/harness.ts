import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { CHROMIUM_ARGS } from "../../support/chromium-args.mjs";

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
