import { describe, expect, it, jest } from "@jest/globals";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { browserForFile, freshPage, open } from "./support";

// axe takes a minute on the reference page alone when the machine is busy (several suites on two cores).
jest.setTimeout(240_000);

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

async function violations(page: Page, impacts: string[]): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const found = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Violation[] }> } }).axe.run(
      document,
    );
    return result.violations;
  });
  return found
    .filter((v) => impacts.includes(v.impact ?? ""))
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")})`,
    );
}

const seriousViolations = (page: Page) => violations(page, ["serious", "critical"]);

const PAGES = ["/", "/basics/errors", "/basics/webhook", "/authentication/", "/no-such-page", "/api-reference/"];

const browser = browserForFile();

describe("accessibility (axe-core): no serious or critical violations", () => {
  for (const theme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      it(`${theme} theme at ${width} px`, async () => {
        const { page } = await freshPage(browser, width);
        await page.evaluate((t) => localStorage.setItem("theme", t), theme);
        const found: string[] = [];
        for (const path of PAGES) {
          const response = await open(page, path);
          // The reference page is large (axe takes long on it): one width per theme is enough. It also
          // depends on the generated OpenAPI document: scan it once it is served.
          if (path === "/api-reference/" && (width !== 1280 || response?.status() !== 200)) continue;
          await page.waitForSelector("main");
          found.push(...(await seriousViolations(page)).map((v) => `${path}: ${v}`));
        }
        expect(found).toEqual([]);
        await page.close();
      });
    }
  }

  it("the mobile drawer, open, is accessible too", async () => {
    const { page } = await freshPage(browser, 390);
    await open(page, "/basics/errors");
    await page.getByRole("button", { name: "Apri il menu della documentazione" }).click();
    await page.getByRole("dialog").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

describe("accessibility (axe-core): no violation of any impact", () => {
  // Landmarks too: the bars above the navbar sit in one, the reference's per-operation columns are not landmarks,
  // and the two search forms of the search page have distinct names.
  it.each(["/", "/search?q=errori", "/api-reference/"])("%s", async (path) => {
    const { page } = await freshPage(browser);
    await open(page, path);
    await page.waitForSelector("main");
    expect(await violations(page, ["minor", "moderate", "serious", "critical"])).toEqual([]);
    await page.close();
  });
});
