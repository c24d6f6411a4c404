import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_HOSTS } from "~/layout/site";
import type { OpenApiDocument } from "~/reference/openapi";
import { withHosts } from "~/reference/servers";

/** The portal's `/openapi.json` and the API's `/api/v1/openapi.json` name the same servers for the same settings. */
describe("the servers of the document the portal hands out", () => {
  const document = JSON.parse(
    readFileSync(fileURLToPath(new URL("../../openapi/openapi.json", import.meta.url)), "utf8"),
  ) as OpenApiDocument;

  it("are the generated document's own with the default hosts, as the API serves them", () => {
    expect(withHosts(document, DEFAULT_HOSTS).servers).toEqual(document.servers);
  });

  it("put the site's hosts under the API's base path, each with the API's description", () => {
    const hosts = { development: "http://localhost:3000", production: "https://api.example.test" };
    expect(withHosts(document, hosts).servers).toEqual([
      { url: "http://localhost:3000/api/v1", description: "Development (sandbox)" },
      { url: "https://api.example.test/api/v1", description: "Production" },
    ]);
  });
});
