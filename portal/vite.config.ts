import { vitePlugin as remix } from "@remix-run/dev";
import { minify } from "@swc/core";
import { defineConfig, type Plugin } from "vite";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DOC_PAGES } from "./app/content/pages";

// Types loader data the single-fetch way (promises stay promises, no JSON round trip).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const contentDir = fileURLToPath(new URL("./app/content/", import.meta.url));

/** The content list and the Markdown files of app/content/ must name the same pages: a page without a route is lost. */
function checkContentList() {
  const files = readdirSync(contentDir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => file.replace(/\.md$/, ""));
  const unlisted = files.filter((file) => !DOC_PAGES.includes(file));
  const missing = DOC_PAGES.filter((page) => !files.includes(page));
  if (unlisted.length || missing.length) {
    throw new Error(
      [
        ...unlisted.map((page) => `app/content/${page}.md has no line in app/content/pages.ts: add "${page}" to DOC_PAGES`),
        ...missing.map((page) => `app/content/pages.ts lists "${page}" but app/content/${page}.md does not exist`),
      ].join("\n"),
    );
  }
}

/**
 * The browser's JavaScript minified again by SWC's minifier, after Vite's (esbuild's): two compress passes and top-level
 * names mangled take 5 % (5 KB gzip) off what a page loads, most of it from React and Remix. The server build is left
 * as it is.
 */
function minifyForBrowsers(): Plugin {
  let browserBuild = false;
  return {
    name: "flusso:minify-for-browsers",
    apply: "build",
    configResolved(config) {
      browserBuild = !config.build.ssr;
    },
    async generateBundle(_, bundle) {
      if (!browserBuild) return;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        chunk.code = (await minify(chunk.code, { module: true, compress: { passes: 2, toplevel: true }, mangle: { toplevel: true } })).code;
      }
    },
  };
}

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    rollupOptions: {
      // Resource routes (downloads, openapi.json, llms.txt…) run on the server only: their empty browser chunks are expected.
      onwarn(warning, warn) {
        if (warning.code !== "EMPTY_BUNDLE") warn(warning);
      },
      output: {
        // React, React DOM and Remix load with every page: one chunk, whichever of them a route module imports (left
        // to Rollup, a route importing React alone split React off, and the two chunks took 1.7 KB more gzipped).
        manualChunks(id) {
          if (/\/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|turbo-stream|@remix-run\/[^/]+)\//.test(id))
            return "components";
        },
      },
    },
  },
  plugins: [
    minifyForBrowsers(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
      // Every docs page is a route of its own, at its content path, rendered by one module (app/docs/route.tsx); the
      // other URLs are files in app/routes/.
      routes(defineRoutes) {
        checkContentList();
        return defineRoutes((route) => {
          for (const page of DOC_PAGES) {
            if (page === "index") route(undefined, "docs/route.tsx", { id: "docs/index", index: true });
            else route(page, "docs/route.tsx", { id: `docs/${page}` });
          }
        });
      },
    }),
  ],
});
