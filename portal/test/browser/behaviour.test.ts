import { describe, expect, it, jest } from "@jest/globals";
import type { Page } from "playwright-core";
import { browserForFile, freshPage, navigate, open } from "./support";

jest.setTimeout(60_000);

const browser = browserForFile();

const visibleSampleText = (page: Page) => page.locator(".code-tabs [role=tabpanel]").first().innerText();

describe("environment selector", () => {
  it("starts as Sviluppo; Produzione rewrites every sample's host, and the choice persists", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/");
    const select = page.getByLabel("Ambiente:");
    expect(await select.inputValue()).toBe("development");
    expect(await visibleSampleText(page)).toContain("https://api.sandbox.flusso.example");

    await select.selectOption({ label: "Produzione" });
    await page.waitForFunction(() => document.documentElement.dataset.environment === "production");
    const sample = await visibleSampleText(page);
    expect(sample).toContain("https://api.flusso.example");
    expect(sample).not.toContain("sandbox");
    const plainBlocks = await page.locator(".markdown .code-block code").allInnerTexts();
    expect(plainBlocks.join("\n")).not.toContain("api.sandbox.flusso.example");

    await page.reload();
    expect(await visibleSampleText(page)).toContain("https://api.flusso.example");
    await page.waitForFunction(() => (window as { __flussoClientStarted?: boolean }).__flussoClientStarted);
    await page.waitForFunction(() => (document.getElementById("environment-select") as HTMLSelectElement).value === "production");
    await page.close();
  });
});

describe("footer", () => {
  it("follows its site links through the router, and reads the same on the error page the browser renders", async () => {
    const { page, errors } = await freshPage(browser);
    await open(page, "/api-reference/");
    await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
    await page.locator("footer").getByRole("link", { name: "Changelog" }).click();
    await page.waitForURL("**/changelog");
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);

    await navigate(page, "/no-such-page");
    await page.getByRole("heading", { name: "Pagina non trovata" }).waitFor();
    expect(await page.locator("footer").textContent()).toContain("Privacy policy");
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("announcement bar", () => {
  it("hides when dismissed, stays hidden after a reload, and reappears for a new announcement id", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/");
    const bar = page.locator(".announcement-bar");
    expect(await bar.isVisible()).toBe(true);
    const id = await bar.getAttribute("data-announcement-id");

    await page.getByRole("button", { name: "Chiudi l'annuncio" }).click();
    expect(await bar.isVisible()).toBe(false);
    await page.reload();
    expect(await bar.isVisible()).toBe(false);

    // The visitor dismissed an older announcement: the current one must show.
    await page.evaluate(() => localStorage.setItem("flusso.announcement.id", "an-older-announcement"));
    await open(page, "/");
    await page.waitForSelector(".announcement-bar", { state: "visible" });
    expect(await page.evaluate(() => localStorage.getItem("flusso.announcement.id"))).toBe(id);
    await page.close();
  });
});

describe("layout at the mobile breakpoint", () => {
  it("at 997 px the docs sidebar is always shown and there is no drawer toggle", async () => {
    const { page } = await freshPage(browser, 997);
    await open(page, "/basics/errors");
    expect(await page.locator(".docs-sidebar").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Apri il menu della documentazione" }).isVisible()).toBe(false);
    expect(await page.locator(".toc").isVisible()).toBe(true);
    await page.close();
  });

  it("at 390 px nothing overflows: the navbar tools stay on screen, the page does not scroll sideways", async () => {
    const { page } = await freshPage(browser, 390);
    for (const path of ["/", "/basics/filter-results", "/no-such-page"]) {
      await open(page, path);
      const toggle = await page.locator("button.color-mode-toggle").boundingBox();
      expect(toggle!.x + toggle!.width).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
    await page.close();
  });

  it("at 996 px the sidebar moves into a drawer opened from the navbar", async () => {
    const { page } = await freshPage(browser, 996);
    await open(page, "/basics/errors");
    expect(await page.locator(".docs-sidebar").isVisible()).toBe(false);
    const menu = page.getByRole("button", { name: "Apri il menu della documentazione" });
    expect(await menu.isVisible()).toBe(true);
    await menu.click();
    const drawer = page.getByRole("dialog", { name: "Menu della documentazione" });
    await drawer.waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "hidden" });

    // Following a link in the drawer navigates and closes it.
    await menu.click();
    await drawer
      .getByRole("link", { name: /webhook/i })
      .first()
      .click();
    await page.waitForURL("**/basics/webhook");
    await drawer.waitFor({ state: "hidden" });
    await page.close();
  });

  it("the open drawer keeps keyboard focus inside, and Escape gives it back to the menu button", async () => {
    const { page } = await freshPage(browser, 390);
    await open(page, "/basics/errors");
    const menu = page.getByRole("button", { name: "Apri il menu della documentazione" });
    await menu.focus();
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog", { name: "Menu della documentazione" });
    await drawer.waitFor({ state: "visible" });
    const focusInDrawer = () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null);
    // More presses than the drawer has controls: focus wraps around instead of reaching the page behind.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      expect({ press: i, inside: await focusInDrawer() }).toEqual({ press: i, inside: true });
    }
    await page.keyboard.press("Shift+Tab");
    expect(await focusInDrawer()).toBe(true);
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Apri il menu della documentazione");
    await page.close();
  });
});

describe("page loading", () => {
  it("shows a centred spinner after 200 ms while the content loads, then the content", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/");
    const started = Date.now();
    await navigate(page, "/basics/errors?__test=slow");
    await page.waitForSelector(".loader .spinner", { state: "visible" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    const box = await page.locator(".loader").boundingBox();
    const spinner = await page.locator(".loader .spinner").boundingBox();
    expect(Math.abs(box!.x + box!.width / 2 - (spinner!.x + spinner!.width / 2))).toBeLessThan(2);
    await page.waitForSelector(".markdown h2");
    expect(await page.locator(".loader").count()).toBe(0);
    await page.close();
  });

  it("on failure shows the error in a red box with Retry, and Retry loads the page", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/");
    await navigate(page, `/basics/errors?__test=fail-once:${Date.now()}`);
    const box = page.locator(".load-error");
    await box.waitFor();
    expect(await box.getAttribute("role")).toBe("alert");
    expect((await box.innerText()).length).toBeGreaterThan("Retry".length);
    const color = await box.evaluate((el) => getComputedStyle(el).color);
    const [r, g, b] = color.match(/\d+/g)!.map(Number);
    expect(r).toBeGreaterThan(g + 60);
    expect(r).toBeGreaterThan(b + 60);
    await box.getByRole("button", { name: "Retry" }).click();
    await page.waitForSelector(".markdown h2");
    expect(await page.locator(".load-error").count()).toBe(0);
    await page.close();
  });

  it("a failure during server rendering also gives the box", async () => {
    const { page } = await freshPage(browser);
    const response = await page.goto("/basics/errors?__test=fail");
    expect(response?.status()).toBe(200);
    expect(await page.locator(".load-error").isVisible()).toBe(true);
    await page.close();
  });

  it("a crash shows 'This page crashed.', Try again, the message and its cause, titled 'Page Error'", async () => {
    const { page } = await freshPage(browser);
    await page.goto("/basics/errors?__test=crash");
    await page.waitForSelector("text=This page crashed.");
    expect(await page.title()).toBe("Page Error");
    expect(await page.getByRole("button", { name: "Try again" }).isVisible()).toBe(true);
    const details = await page.locator(".crash-details").innerText();
    expect(details).toContain("The page threw while rendering (test hook).");
    expect(details).toContain("Cause: The test asked for a crash.");
    await page.close();
  });

  it("a progress bar appears after 200 ms on a slow route change and completes after it", async () => {
    const { page } = await freshPage(browser);
    // Slowed before the page opens, so that no prefetch of the next route's data can finish first and make the
    // navigation instant.
    await page.route("**/*.data*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 900));
      await route.continue();
    });
    await open(page, "/");
    // The bar is looked for while the navigation runs: `navigate` settles only once it has ended, and on a loaded
    // machine the bar had finished by then.
    const navigation = navigate(page, "/basics/webhook");
    await page.waitForSelector('.progress-bar[data-visible="true"]');
    await navigation;
    await page.waitForURL("**/basics/webhook");
    // Completed: the bar says so (it then fades out and is hidden, so it is not waited for as visible).
    await page.waitForSelector('.progress-bar[data-visible="false"]', { state: "attached" });
    await page.close();
  });

  it("reloads the page when the next route's data cannot be fetched", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/");
    await page.evaluate(() => ((window as { __marker?: boolean }).__marker = true));
    // Every data request fails (a prefetch could otherwise take a one-off failure); the reload is a document request.
    await page.route("**/*.data*", (route) => route.abort());
    await page
      .locator(".docs-sidebar")
      .getByRole("link", { name: /authentication/i })
      .click();
    await page.waitForFunction(() => !(window as { __marker?: boolean }).__marker && document.readyState === "complete");
    expect(new URL(page.url()).pathname).toBe("/authentication/");
    await page.waitForSelector("main h1");
    expect(await page.locator("main h1").textContent()).toMatch(/authentication/i);
    await page.close();
  });
});

describe("navigation", () => {
  it("a route change scrolls to the top, or to the anchor when there is a hash", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/basics/errors");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await navigate(page, "/authentication/");
    await page.waitForSelector(".markdown h2");
    await page.waitForFunction(() => window.scrollY === 0);

    const id = await page.evaluate(async () => {
      const res = await fetch("/basics/errors");
      const html = await res.text();
      const ids = [...html.matchAll(/<h2 id="([^"]+)"/g)].map((m) => m[1]);
      // One from the middle: the last one may sit too close to the end of the page to reach the top.
      return ids[Math.floor(ids.length / 2)];
    });
    await navigate(page, `/basics/errors#${id}`);
    await page.waitForFunction((target) => {
      const el = document.getElementById(target);
      return el !== null && Math.abs(el.getBoundingClientRect().top) < 200;
    }, id);
    await page.close();
  });

  it("prefetches a page when its link is hovered, except when the connection saves data", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/");
    const link = page.locator(".docs-sidebar").getByRole("link", { name: /authentication/i });
    await link.hover();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('link[rel="prefetch"]')].some((l) => l.getAttribute("href")?.includes("authentication")),
    );
    await page.close();

    const saver = await browser.context.newPage();
    await saver.addInitScript(() =>
      Object.defineProperty(navigator, "connection", {
        value: { effectiveType: "4g", saveData: true, addEventListener() {}, removeEventListener() {} },
      }),
    );
    await open(saver, "/");
    await saver
      .locator(".docs-sidebar")
      .getByRole("link", { name: /authentication/i })
      .hover();
    await saver.waitForTimeout(500);
    expect(
      await saver.$$eval('link[rel="prefetch"]', (links) => links.some((l) => l.getAttribute("href")?.includes("authentication"))),
    ).toBe(false);
    await saver.close();
  });

  it("shows the did-not-load banner on the home page when the app cannot start", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/");
    await page.waitForTimeout(1800);
    expect(await page.locator("#did-not-load-banner").isVisible()).toBe(false);

    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto("/");
    await page.waitForSelector("#did-not-load-banner", { state: "visible", timeout: 10_000 });
    expect(await page.locator("#did-not-load-banner").innerText()).toMatch(/non si è caricato correttamente/);
    await page.close();
  });

  it("the skip link is the first tab stop and moves focus to the main content", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/basics/errors");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Vai al contenuto principale");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.id === "main-content");
    await page.close();
  });

  it("sidebar categories collapse with a height animation", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/basics/errors");
    const toggle = page.locator(".docs-sidebar .menu-category-toggle").first();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await toggle.click();
    const panel = page.locator(".docs-sidebar [data-collapsed]").first();
    const transition = await panel.evaluate((el) => (el as HTMLElement).style.transition);
    expect(transition).toMatch(/^height \d+ms ease-in-out$/);
    await page.waitForFunction(() => {
      const el = document.querySelector<HTMLElement>(".docs-sidebar [data-collapsed]");
      return el?.style.visibility === "hidden" && el.getBoundingClientRect().height === 0;
    });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await page.close();
  });

  it("with reduced motion preferred, collapsibles animate in 1 ms", async () => {
    const { page } = await freshPage(browser);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await open(page, "/basics/errors");
    // A 1 ms transition may end (and its style be cleared) before a read after the click: record every value it takes.
    await page
      .locator(".docs-sidebar [data-collapsed]")
      .first()
      .evaluate((el) => {
        const seen: string[] = [];
        (window as unknown as { transitionsSeen: string[] }).transitionsSeen = seen;
        new MutationObserver(() => seen.push((el as HTMLElement).style.transition)).observe(el, { attributeFilter: ["style"] });
      });
    await page.locator(".docs-sidebar .menu-category-toggle").first().click();
    await page.waitForFunction(() => (window as unknown as { transitionsSeen: string[] }).transitionsSeen.some(Boolean));
    const transitions = await page.evaluate(() => (window as unknown as { transitionsSeen: string[] }).transitionsSeen.filter(Boolean));
    expect(new Set(transitions)).toEqual(new Set(["height 1ms ease-in-out"]));
    await page.close();
  });

  it("remembers the docs version read, per docs plugin", async () => {
    const { page } = await freshPage(browser);
    await open(page, "/basics/errors");
    await page.waitForFunction(() => localStorage.getItem("docs-preferred-version-default") !== null);
    expect(await page.evaluate(() => localStorage.getItem("docs-preferred-version-default"))).toBe("1.2.0");
    await page.close();
  });
});
