import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "@jest/globals";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM_ARGS } from "../support/chromium-args.mjs";

export const BASE_URL = process.env.PORTAL_TEST_URL ?? "";

export type Browser = { context: BrowserContext; close: () => Promise<void> };

/** A fresh Chromium with its own --user-data-dir (a persistent context is how Playwright takes one). */
export async function launch(
  options: { colorScheme?: "light" | "dark"; reducedMotion?: "reduce" | "no-preference" } = {},
): Promise<Browser> {
  if (!BASE_URL) throw new Error("PORTAL_TEST_URL is not set: run the browser tests through jest's globalSetup");
  const userDataDir = mkdtempSync(join(tmpdir(), "flusso-portal-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    colorScheme: options.colorScheme ?? "light",
    reducedMotion: options.reducedMotion ?? "no-preference",
    baseURL: BASE_URL,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One Chromium for the calling test file: launched before its tests, closed after them. The object
 * returned is filled in by the beforeAll hook, so use it inside tests and hooks only.
 */
export function browserForFile(): Browser {
  const browser = {} as Browser;
  beforeAll(async () => {
    Object.assign(browser, await launch());
  });
  afterAll(async () => {
    await browser.close?.();
  });
  return browser;
}

/** A new tab with empty storage, that fails the test on any uncaught page error. */
export async function freshPage(browser: Browser, width = 1280): Promise<{ page: Page; errors: Error[] }> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors: Error[] = [];
  page.on("pageerror", (error) => errors.push(error));
  await page.goto("/__blank__");
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  return { page, errors };
}

/** Opens `path` and waits until React has hydrated (the client marks itself started). */
export async function open(page: Page, path: string) {
  const response = await page.goto(path);
  await page.waitForFunction(() => (window as { __flussoClientStarted?: boolean }).__flussoClientStarted === true);
  // Hydration runs in a transition right after the flag: let effects settle.
  await page.waitForFunction(() => document.querySelector("html[data-environment]") !== null);
  return response;
}

/** Client-side navigation through the Remix router, as a link click would do. */
export async function navigate(page: Page, to: string) {
  await page.evaluate(
    (path) => (window as unknown as { __remixRouter: { navigate: (to: string) => Promise<void> } }).__remixRouter.navigate(path),
    to,
  );
}
