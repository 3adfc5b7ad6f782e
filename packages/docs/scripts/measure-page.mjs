#!/usr/bin/env node
// How light the docs page is to load, measured rather than asserted (a timing depends on the machine, so no
// test checks one): in headless Chromium (Debian's, as the tests use), five visits of the page as a file, each
// in a fresh context; prints the median of DOMContentLoaded and of the moment the last operation's text is
// readable (its part parsed and a frame painted after it) and of the first console's opening (console.js
// loaded, its form built), and the page's weight raw and compressed as the server sends it (brotli quality 9,
// gzip 9).
//
//   node packages/docs/scripts/measure-page.mjs [page.html]     (default: this package's index.html)
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";

const VISITS = 5;
const file = resolve(process.argv[2] ?? new URL("../index.html", import.meta.url).pathname);
const bytes = readFileSync(file);
const html = bytes.toString("utf8");
const anchors = [...html.matchAll(/<section class="operation" id="([^"]+)"/g)].map((m) => m[1]);
const last = anchors.at(-1);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One visit: [DOMContentLoaded, last operation readable] from the navigation's start, first console, in ms. */
async function visit(browser) {
  const context = await browser.newContext({ offline: true });
  const page = await context.newPage();
  // Watches, from the first frame, for the last operation's part; readable once a frame is painted after it.
  await page.addInitScript((id) => {
    const watch = () => {
      if (document.getElementById(id)) {
        requestAnimationFrame(() => {
          window.__readable = performance.now();
        });
      } else requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
  }, last);
  await page.goto(`${pathToFileURL(file).href}#${last}`, { waitUntil: "load" });
  await page.waitForFunction(() => window.__readable !== undefined);
  const times = await page.evaluate(() => [
    performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
    window.__readable,
  ]);
  // The first console: the click, console.js loaded and run, the form built (a page without it measures 0).
  const button = page.locator("button.try-open").last();
  const started = await page.evaluate(() => performance.now());
  await button.click();
  await page.locator("form.console").waitFor();
  times.push((await page.evaluate(() => performance.now())) - started);
  await context.close();
  return times;
}

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  await visit(browser); // warms Chromium's own caches, not counted
  const runs = [];
  for (let i = 0; i < VISITS; i++) runs.push(await visit(browser));
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }).length;
  const gzip = gzipSync(bytes, { level: 9 }).length;
  console.log(`page: ${file}`);
  console.log(`raw ${bytes.length} bytes, brotli ${brotli}, gzip ${gzip}`);
  console.log(`DOMContentLoaded: median ${Math.round(median(runs.map((r) => r[0])))} ms of ${VISITS}`);
  console.log(`last operation (${last}) readable: median ${Math.round(median(runs.map((r) => r[1])))} ms`);
  console.log(`first console open: median ${Math.round(median(runs.map((r) => r[2])))} ms`);
  console.log(`runs: ${runs.map((r) => r.map(Math.round).join("/")).join(", ")}`);
} finally {
  await browser.close();
}
