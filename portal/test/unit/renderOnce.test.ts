import type { EntryContext } from "@remix-run/node";
import { gunzipSync } from "node:zlib";
import { keepRendered, renderedOnce, renderOnceKey } from "~/renderOnce.server";

/** The parts of Remix's entry context renderOnceKey reads: the matched routes and their modules' handles. */
function context(handle: unknown): EntryContext {
  return {
    staticHandlerContext: { matches: [{ route: { id: "root" } }, { route: { id: "routes/page" } }] },
    routeModules: { root: {}, "routes/page": { handle } },
  } as unknown as EntryContext;
}

const get = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe("pages rendered once", () => {
  it("are the GET answers of 200 without a query, of a route whose handle says renderOnce", () => {
    const once = context({ renderOnce: true });
    expect(renderOnceKey(get("http://portal.test/api-reference/"), 200, once)).toEqual({ routeId: "routes/page", path: "/api-reference/" });
    expect(renderOnceKey(get("http://portal.test/api-reference/?__test=slow"), 200, once)).toBeNull();
    expect(renderOnceKey(new Request("http://portal.test/api-reference/", { method: "HEAD" }), 200, once)).toBeNull();
    expect(renderOnceKey(get("http://portal.test/api-reference/"), 500, once)).toBeNull();
    expect(renderOnceKey(get("http://portal.test/basics/errors"), 200, context({ lang: "en" }))).toBeNull();
  });

  it("are kept as rendered and answered gzipped to whoever accepts gzip, as they are to the others", async () => {
    const html = Buffer.from("<!DOCTYPE html><html><body>reference</body></html>");
    const headers = new Headers({ "Content-Type": "text/html; charset=utf-8" });
    const kept = { routeId: "routes/kept", path: "/kept/" };
    const first = keepRendered(kept, html, headers, get("http://portal.test/kept/"));
    expect(await first.text()).toBe(html.toString());
    expect(renderedOnce({ routeId: "routes/other", path: "/other/" }, get("http://portal.test/other/"))).toBeNull();

    const gzipped = renderedOnce(kept, get("http://portal.test/kept/", { "Accept-Encoding": "br, gzip;q=0.8" }))!;
    expect(gzipped.headers.get("Content-Encoding")).toBe("gzip");
    expect(gzipped.headers.get("Vary")).toBe("Accept-Encoding");
    expect(gzipped.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(html.toString());

    const refused = renderedOnce(kept, get("http://portal.test/kept/", { "Accept-Encoding": "gzip;q=0, identity" }))!;
    expect(refused.headers.get("Content-Encoding")).toBeNull();
    expect(await refused.text()).toBe(html.toString());
  });

  it("keep two spellings of a route's path: the others render each time", async () => {
    const html = Buffer.from("<p>page</p>");
    const spelt = (path: string) => ({ routeId: "routes/spelt", path });
    for (const path of ["/Spelt", "/spelt/", "/SPELT"]) keepRendered(spelt(path), html, new Headers(), get(`http://portal.test${path}`));
    expect(renderedOnce(spelt("/Spelt"), get("http://portal.test/Spelt"))).not.toBeNull();
    expect(renderedOnce(spelt("/spelt/"), get("http://portal.test/spelt/"))).not.toBeNull();
    expect(renderedOnce(spelt("/SPELT"), get("http://portal.test/SPELT"))).toBeNull();
  });
});
