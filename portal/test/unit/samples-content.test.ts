import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseFrontMatter, renderMarkdown, type DocBlock } from "~/docs/markdown";
import { SAMPLE_LANGUAGES, type CodeSample } from "~/docs/samples";

// The spec promises every API call in curl, raw HTTP, Elixir, Python, Java and PHP, each sending the bearer header.
// A group with a curl or HTTP tab is an API call; groups without one (webhook receivers, logic snippets) are not.
const hosts = { development: "https://dev.example", production: "https://prod.example" };
const contentDir = fileURLToPath(new URL("../../app/content/", import.meta.url));
const pages = (readdirSync(contentDir, { recursive: true }) as string[]).filter((file) => file.endsWith(".md")).sort();

function sampleGroups(blocks: DocBlock[]): CodeSample[][] {
  return blocks.flatMap((block) =>
    block.kind === "samples" ? [block.samples] : block.kind === "admonition" ? sampleGroups(block.blocks) : [],
  );
}

const apiCallGroups = pages.flatMap((page) => {
  const { body } = parseFrontMatter(readFileSync(`${contentDir}${page}`, "utf8"));
  return sampleGroups(renderMarkdown(body, { hosts, email: "help@example.test" }).blocks)
    .map((samples, index) => ({ where: `${page} group ${index + 1}`, samples }))
    .filter(({ samples }) => samples.some((s) => s.language === "curl" || s.language === "http"));
});

describe("API-call sample groups in the docs", () => {
  it("exist (the check below would pass vacuously otherwise)", () => {
    expect(apiCallGroups.length).toBeGreaterThan(10);
  });

  it("have all six languages, once each, in tab order", () => {
    const incomplete = apiCallGroups
      .map(({ where, samples }) => ({ where, languages: samples.map((s) => s.language) }))
      .filter(({ languages }) => languages.join() !== Object.keys(SAMPLE_LANGUAGES).join())
      .map(({ where, languages }) => `${where}: ${languages.join(", ")}`);
    expect(incomplete).toEqual([]);
  });

  it("send the bearer header in every language", () => {
    const withoutBearer = apiCallGroups.flatMap(({ where, samples }) =>
      samples.filter((s) => !s.code.includes("Bearer")).map((s) => `${where}: ${s.language}`),
    );
    expect(withoutBearer).toEqual([]);
  });
});
