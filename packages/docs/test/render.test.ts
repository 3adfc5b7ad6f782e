// The page is readable at once: its HTML holds every operation's text, so a browser with scripts turned off
// shows all of it, and with scripts on the first content is painted within a second. Headless Chromium, the
// network cut off. Skips, saying why, where no Chromium is installed.
import { loadSpec } from "@workapi/spec";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { docsPath } from "../index.js";

const hasChromium = browserAvailable("the docs rendering test");
const operations = Object.values(loadSpec().paths).flatMap(
  (item) => Object.values(item ?? {}) as Array<{ operationId: string; summary: string; tags: string[] }>,
);

describe.skipIf(!hasChromium)("the docs page in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows every operation with scripts turned off and no network", async () => {
    const context = await browser.newContext({ offline: true, javaScriptEnabled: false });
    const page = await context.newPage();
    const external: string[] = [];
    page.on("request", (request) => {
      if (!/^(file|data|blob):/.test(request.url()))
        external.push(`${request.resourceType()} ${request.url()}`);
    });
    await page.goto(docsPath.href, { waitUntil: "load" });
    const shown = await page.$$eval("section.operation", (nodes) =>
      nodes.map((node) => [node.id, (node.querySelector("h3")?.textContent ?? "").trim()]),
    );
    const expected = operations.map((op) => [`tag/${op.tags[0]}/operation/${op.operationId}`, op.summary]);
    expect(shown).toEqual(expected);
    // Laid out and visible, not only present: the deep-linked operation is in view.
    await page.goto(`${docsPath.href}#tag/slas/operation/slas-update`, { waitUntil: "load" });
    await expect(page.locator('[id="tag/slas/operation/slas-update"] h3').isVisible()).resolves.toBe(true);
    expect(external).toEqual([]);
    await context.close();
  }, 120_000);

  it("paints real content within a second, the operations' text already in the document", async () => {
    const context = await browser.newContext({ offline: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    // The first visit warms Chromium's own caches (its process, fonts); the second is measured.
    await page.goto(docsPath.href, { waitUntil: "load" });
    await page.goto(`${docsPath.href}?measured`, { waitUntil: "load" });
    const painted = await page.evaluate(() => {
      const paint = performance.getEntriesByName("first-contentful-paint")[0];
      return {
        at: paint?.startTime ?? Number.POSITIVE_INFINITY,
        text: document.body.textContent?.length ?? 0,
      };
    });
    console.log(`docs page: first contentful paint at ${Math.round(painted.at)} ms`);
    expect(painted.at).toBeLessThanOrEqual(1000);
    expect(painted.text).toBeGreaterThan(100_000);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
