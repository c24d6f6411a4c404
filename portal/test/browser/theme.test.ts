import { describe, expect, it, jest } from "@jest/globals";
import type { Page } from "playwright-core";
import { browserForFile, freshPage, open } from "./support";

jest.setTimeout(60_000);

const browser = browserForFile();

const theme = (page: Page) => page.getAttribute("html", "data-theme");
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const toggle = (page: Page) => page.locator("button.color-mode-toggle").click();

describe("colour mode", () => {
  it("defaults to light, even when the OS prefers dark", async () => {
    const { page } = await freshPage(browser);
    await page.emulateMedia({ colorScheme: "dark" });
    await open(page, "/");
    expect(await theme(page)).toBe("light");
    expect(await background(page)).toBe("rgb(255, 255, 255)");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBeNull();
    await page.close();
  });

  it("the toggle goes light → dark → system, and the choice survives a reload", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/");
    await toggle(page);
    expect(await theme(page)).toBe("dark");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    expect(await background(page)).not.toBe("rgb(255, 255, 255)");
    await page.reload();
    expect(await theme(page)).toBe("dark");
    await page.waitForFunction(() => (window as { __flussoClientStarted?: boolean }).__flussoClientStarted);
    await toggle(page);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("system");
    await page.close();
  });

  it("paints the stored theme before the app starts (no flash)", async () => {
    const { page } = await freshPage(browser);
    await page.evaluate(() => localStorage.setItem("theme", "dark"));
    // Scripts blocked: only the inline head script can have set the theme.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto("/basics/errors");
    expect(await theme(page)).toBe("dark");
    await page.close();
  });

  it("system follows the OS preference live", async () => {
    const { page } = await freshPage(browser);
    await page.evaluate(() => localStorage.setItem("theme", "system"));
    await page.emulateMedia({ colorScheme: "light" });
    await open(page, "/");
    expect(await theme(page)).toBe("light");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
    await page.close();
  });

  it("stays in sync between two tabs", async () => {
    const { page: first } = await freshPage(browser);
    const second = await browser.context.newPage();
    await open(first, "/");
    await open(second, "/basics/errors");
    await toggle(first);
    await second.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await toggle(second);
    await first.waitForFunction(() => document.documentElement.dataset.themeChoice === "system");
    await first.close();
    await second.close();
  });
});
