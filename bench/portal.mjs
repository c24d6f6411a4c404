#!/usr/bin/env node
// Portal benchmark: server render time of a docs page and of the API reference (p50/p99 over N
// sequential HTTP renders of the built portal), the JavaScript each page ships (gzip), and the
// same figures for Redoc's standalone bundle rendering our OpenAPI document in headless Chromium.
//
//   npm run bench:portal                 builds the portal, then measures
//   BENCH_N=500 npm run bench:portal     more renders per page (default 200)
//   node bench/portal.mjs --skip-build   reuse portal/build
//
// Redoc is fetched with `npm pack redoc@<version>` into a cache directory: its standalone bundle
// is self-contained, so installing the package (and, for 2.x, ~100 peer and runtime dependencies
// with install scripts) into the workspace would add nothing the benchmark uses. Both the current
// major and the last 2.x are measured: 2.x is what static Redoc pages have run for years and its
// bundle is far smaller, so it is the stricter comparison.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../test-support/chromium-args.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PORTAL = join(ROOT, 'portal');
const RENDERS = Number(process.env.BENCH_N ?? 200);
const WARMUP = 20;
const BROWSER_RUNS = Number(process.env.BENCH_BROWSER_RUNS ?? 5);
const REDOC_VERSIONS = (process.env.REDOC_VERSIONS ?? '3.0.1,2.5.2').split(',');
const PAGES = [
  { name: 'Docs page /basics/errors', path: '/basics/errors' },
  { name: 'API reference /api-reference/', path: '/api-reference/' },
];

const gzipBytes = (data) => gzipSync(data).length;
const kb = (bytes) => (bytes / 1024).toFixed(1);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function median(values) {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`portal did not start: ${error}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function startPortal() {
  const port = await freePort();
  const child = spawn(join(ROOT, 'node_modules/.bin/remix-serve'), ['build/server/index.js'], {
    cwd: PORTAL,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/llms.txt`, child);
  return { url, stop: () => child.kill('SIGTERM') };
}

/** Sequential full renders (time to the last byte, streamed parts included). */
async function renderTimes(url) {
  const times = [];
  for (let i = 0; i < WARMUP + RENDERS; i++) {
    const started = process.hrtime.bigint();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    if (i >= WARMUP) times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/**
 * JavaScript a page loads: module preloads, script sources and the imports of its inline module
 * script. (The inline route manifest names other pages' modules too; those load only on navigation.)
 */
function shippedJavaScript(html) {
  const references = [
    ...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g),
    ...html.matchAll(/<script[^>]* src="([^"]+)"/g),
    ...html.matchAll(/import(?:\s*\*\s*as\s+\w+\s+from)?\s*\(?"(\/assets\/[^"]+\.js)"/g),
  ];
  const files = [...new Set(references.map((m) => m[1]))];
  const external = files.reduce((sum, file) => sum + gzipBytes(readFileSync(join(PORTAL, 'build/client', file))), 0);
  const inline = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1])
    .filter((code) => code.trim() !== '')
    .reduce((sum, code) => sum + gzipBytes(code), 0);
  return { files: files.length, external, inline, html: gzipBytes(html) };
}

function redocBundle(version) {
  const cache = join(tmpdir(), `flusso-bench-redoc-${version}`);
  const bundle = join(cache, 'package/bundles/redoc.standalone.js');
  if (!existsSync(bundle)) {
    mkdirSync(cache, { recursive: true });
    const tarball = execFileSync('npm', ['pack', `redoc@${version}`, '--silent'], { cwd: cache, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['xzf', tarball, 'package/bundles/redoc.standalone.js'], { cwd: cache });
  }
  return readFileSync(bundle);
}

/** Serves a page that renders our document with Redoc, as a static Redoc page does. */
function serveRedoc(bundle, spec) {
  // 3.x ships the standalone bundle as an ES module; 2.x as a script defining window.Redoc.
  const start = /export\s*\{[^}]*\binit\b[^}]*\};?\s*$/.test(bundle.toString('utf8', bundle.length - 300))
    ? `<script type="module">import { init } from '/redoc.standalone.js'; init('/openapi.json', {}, document.getElementById('redoc'));</script>`
    : `<script src="/redoc.standalone.js"></script><script>Redoc.init('/openapi.json', {}, document.getElementById('redoc'));</script>`;
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Redoc</title></head><body><div id="redoc"></div>${start}</body></html>`;
  const files = {
    '/': ['text/html', page],
    '/redoc.standalone.js': ['application/javascript', bundle],
    '/openapi.json': ['application/json', spec],
  };
  const server = createHttpServer((request, response) => {
    const [type, body] = files[request.url] ?? ['text/plain', 'not found'];
    response.writeHead(files[request.url] ? 200 : 404, { 'Content-Type': type }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

async function withBrowser(run) {
  const profile = mkdtempSync(join(tmpdir(), 'flusso-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
  });
  try {
    return await run(context);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Median ms from navigation start until the page shows the reference (fresh cache each run). */
async function browserTimes(context, url, readyMs) {
  const times = [];
  for (let i = 0; i < BROWSER_RUNS; i++) {
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    await session.send('Network.clearBrowserCache');
    await page.goto(url, { waitUntil: 'load' });
    times.push(await readyMs(page));
    await page.close();
  }
  return median(times);
}

// Ours is rendered on the server: the reference is on screen at first contentful paint.
const oursReady = (page) =>
  page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    return paint ? paint.startTime : performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd;
  });

/* global document */
// Redoc renders in the browser: its first view is on screen once the document's title is.
const redocReady = (title) => async (page) =>
  (
    await page.waitForFunction((text) => document.getElementById('redoc').innerText.includes(text) && performance.now(), title, {
      polling: 'raf',
      timeout: 60_000,
    })
  ).jsonValue();

async function main() {
  if (!process.argv.includes('--skip-build')) {
    execFileSync('npm', ['run', 'build', '-w', 'portal'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const portal = await startPortal();
  const servers = [];
  try {
    const spec = await (await fetch(`${portal.url}/openapi.json`)).text();
    if (!spec.startsWith('{')) throw new Error('the portal has no OpenAPI document: run `npm run openapi` first');

    const rows = [];
    for (const { name, path } of PAGES) {
      const times = await renderTimes(portal.url + path);
      const html = await (await fetch(portal.url + path)).text();
      rows.push({ name, path, ...times, ...shippedJavaScript(html) });
    }

    const { title } = JSON.parse(spec).info;
    const redocs = [];
    const oursMs = await withBrowser(async (context) => {
      for (const version of REDOC_VERSIONS) {
        const bundle = redocBundle(version);
        const server = await serveRedoc(bundle, spec);
        servers.push(server.server);
        redocs.push({
          version,
          external: gzipBytes(bundle),
          spec: gzipBytes(spec),
          renderMs: await browserTimes(context, server.url, redocReady(title)),
        });
      }
      return browserTimes(context, `${portal.url}/api-reference/`, oursReady);
    });
    const reference = rows[1];

    console.log(`Portal benchmark: ${RENDERS} sequential server renders per page after ${WARMUP} warm-up, gzip level 6.\n`);
    console.log('page                              render p50   render p99   JS files  JS gzip    inline <script> gzip  HTML gzip');
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(34)}${`${row.p50.toFixed(2)} ms`.padStart(10)}${`${row.p99.toFixed(2)} ms`.padStart(13)}${String(row.files).padStart(
          10,
        )}${`${kb(row.external)} KB`.padStart(11)}${`${kb(row.inline)} KB`.padStart(22)}${`${kb(row.html)} KB`.padStart(11)}`,
      );
    }
    for (const redoc of redocs) {
      console.log(
        `${`Redoc ${redoc.version} standalone`.padEnd(34)}${'(client)'.padStart(10)}${'(client)'.padStart(13)}${'1'.padStart(10)}${`${kb(
          redoc.external,
        )} KB`.padStart(11)}${`+ spec ${kb(redoc.spec)} KB`.padStart(22)}`,
      );
    }
    console.log(`\nReference on screen in headless Chromium, median of ${BROWSER_RUNS} cold loads:`);
    console.log(`  ours ${oursMs.toFixed(0)} ms (first contentful paint: rendered on the server)`);
    for (const redoc of redocs) console.log(`  Redoc ${redoc.version} ${redoc.renderMs.toFixed(0)} ms (first view on screen: rendered in the browser)`);
    console.log(`\nJavaScript shipped by the API reference / by Redoc (target ≤ 0.333):`);
    for (const redoc of redocs) {
      redoc.ratio = reference.external / redoc.external;
      redoc.ratioWithData = (reference.external + reference.inline) / (redoc.external + redoc.spec);
      console.log(
        `  vs Redoc ${redoc.version}: ${redoc.ratio.toFixed(3)} ${
          redoc.ratio <= 1 / 3 ? '(met)' : '(NOT met)'
        }; with page data vs spec download: ${redoc.ratioWithData.toFixed(3)}`,
      );
    }

    const results = join(ROOT, 'bench/results');
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, 'portal.json'), `${JSON.stringify({ renders: RENDERS, pages: rows, oursMs, redocs }, null, 2)}\n`);
  } finally {
    portal.stop();
    for (const server of servers) server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
