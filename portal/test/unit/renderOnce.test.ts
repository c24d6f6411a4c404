import type { EntryContext } from "@remix-run/node";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { keepRendered, renderedOnce, renderOnceKey } from "~/renderOnce.server";

/** The parts of Remix's entry context renderOnceKey reads: the matched routes and their modules' handles. */
function context(handle: unknown): EntryContext {
  return {
    staticHandlerContext: { matches: [{ route: { id: "root" } }, { route: { id: "routes/page" } }] },
    routeModules: { root: {}, "routes/page": { handle } },
  } as unknown as EntryContext;
}

const gzipLength = async (response: Response) => {
  expect(response.headers.get("Content-Encoding")).toBe("gzip");
  return (await response.arrayBuffer()).byteLength;
};

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

  it("are answered in Brotli to whoever accepts it once it is made, off the request that kept the page", async () => {
    const html = Buffer.from(`<!DOCTYPE html><html><body>${"<p>reference</p>".repeat(1000)}</body></html>`);
    const kept = { routeId: "routes/brotli", path: "/brotli/" };
    const accepting = () => get("http://portal.test/brotli/", { "Accept-Encoding": "gzip, deflate, br" });
    const first = keepRendered(kept, html, new Headers(), accepting());
    expect(first.headers.get("Content-Encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await first.arrayBuffer())).toString()).toBe(html.toString());

    let answer = renderedOnce(kept, accepting())!;
    for (let wait = 0; answer.headers.get("Content-Encoding") !== "br" && wait < 200; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      answer = renderedOnce(kept, accepting())!;
    }
    expect(answer.headers.get("Content-Encoding")).toBe("br");
    expect(answer.headers.get("Vary")).toBe("Accept-Encoding");
    expect(answer.headers.get("ETag")).toBe(first.headers.get("ETag"));
    const br = Buffer.from(await answer.arrayBuffer());
    expect(br.length).toBeLessThan(await gzipLength(renderedOnce(kept, get("http://portal.test/brotli/", { "Accept-Encoding": "gzip" }))!));
    expect(brotliDecompressSync(br).toString()).toBe(html.toString());

    const refused = renderedOnce(kept, get("http://portal.test/brotli/", { "Accept-Encoding": "br;q=0, gzip" }))!;
    expect(refused.headers.get("Content-Encoding")).toBe("gzip");
    const plain = renderedOnce(kept, get("http://portal.test/brotli/"))!;
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    expect(await plain.text()).toBe(html.toString());
  });

  it("carry an ETag and answer 304 to a browser whose copy is current", async () => {
    const kept = { routeId: "routes/tagged", path: "/tagged/" };
    const first = keepRendered(kept, Buffer.from("<p>v1</p>"), new Headers(), get("http://portal.test/tagged/"));
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^W\/"[\w-]{27}"$/);
    expect(first.headers.get("Cache-Control")).toBe("no-cache");

    const again = renderedOnce(kept, get("http://portal.test/tagged/", { "If-None-Match": `"other", ${etag.slice(2)}` }))!;
    expect(again.status).toBe(304);
    expect(again.headers.get("ETag")).toBe(etag);
    expect(await again.text()).toBe("");
    const stale = renderedOnce(kept, get("http://portal.test/tagged/", { "If-None-Match": 'W/"other"' }))!;
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe("<p>v1</p>");
    const another = keepRendered(
      { routeId: "routes/tagged2", path: "/tagged2/" },
      Buffer.from("<p>v2</p>"),
      new Headers(),
      get("http://portal.test/tagged2/"),
    );
    expect(another.headers.get("ETag")).not.toBe(etag);
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
