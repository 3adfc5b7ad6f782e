// The docs page works with no network but its own origin: served from a local HTTP server, with every other
// request blocked, it loads with no failed request, shows a deep-linked operation with its scope line and
// code samples, finds fields and error types with its search (keyboard only), and leaves screenshots in
// test-artifacts/ for a person to look at. Skips, saying why, where no Chromium is installed.
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { loadSpec } from "@workapi/spec";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { docsPath } from "../index.js";

const hasChromium = browserAvailable("the offline docs test");
const artifacts = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

describe.skipIf(!hasChromium)("the docs page offline", () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  let page: Page;
  const blocked: string[] = [];
  const failed: string[] = [];
  const errors: string[] = [];
  beforeAll(async () => {
    const html = readFileSync(docsPath);
    // Every path answers the page, as a server of a single-page reference would.
    server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    mkdirSync(artifacts, { recursive: true });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`)) return route.continue();
      blocked.push(url);
      return route.abort("blockedbyclient");
    });
    page = await context.newPage();
    page.on("requestfailed", (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on("pageerror", (error) => errors.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("follows a deep link to an operation and shows its scope line and samples", async () => {
    const operation = loadSpec().paths["/tags.list"]?.get as {
      operationId: string;
      summary: string;
      "x-codeSamples": Array<{ label: string; source: string }>;
    };
    const link = `#tag/tags/operation/${operation.operationId}`;
    await page.goto(`${origin}/${link}`, { waitUntil: "load" });
    const section = page.locator(`[id="tag/tags/operation/${operation.operationId}"]`);
    await expect(section.locator("h3").isVisible()).resolves.toBe(true);
    // The sidebar links to it the same way, so the form is the page's own.
    expect(await page.locator(`#nav a[href="${link}"]`).count()).toBe(1);
    // ... and marks it as the current entry.
    expect(await page.locator(`#nav a[href="${link}"]`).getAttribute("aria-current")).toBe("location");
    const text = (await section.textContent()) ?? "";
    expect(text).toContain(operation.summary);
    expect(text).toContain("Scopes: tag:read, tag:write or tag:all");
    for (const sample of operation["x-codeSamples"]) expect(text).toContain(sample.source.split("\n")[0]);
    await page.screenshot({ path: `${artifacts}docs-operation.png` });
  });

  it("finds a schema field and an error type, and goes there with the keyboard", async () => {
    const wanted: Array<[string, string]> = [
      ["is_frozen", "schema/Work/is_frozen"],
      ["dev_org_deactivated", "schema/ErrorDevOrgDeactivated"],
    ];
    for (const [query, anchor] of wanted) {
      await page.keyboard.press("Escape");
      await page.locator("body").click({ position: { x: 700, y: 500 } });
      await page.keyboard.press("/");
      await page.keyboard.type(query);
      const results = page.locator("#search-results li");
      await results.first().waitFor({ state: "visible" });
      const labels = await results.locator("code").allTextContents();
      expect(labels[0]).toBe(query);
      const anchors = await results.evaluateAll((items) =>
        items.map((item) => item.getAttribute("data-anchor")),
      );
      const index = anchors.indexOf(anchor);
      expect(index).toBeGreaterThanOrEqual(0);
      await page.screenshot({ path: `${artifacts}docs-search-${query}.png` });
      for (let step = 0; step < index; step += 1) await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await page.waitForFunction((want) => decodeURIComponent(location.hash) === `#${want}`, anchor);
      await expect(page.locator(`[id="${anchor}"]`).isVisible()).resolves.toBe(true);
      await page.fill("#search", "");
    }
  });

  it("finds an operation by words of its description, ranked first", async () => {
    await page.fill("#search", "replaces whole list of policies");
    const first = page.locator("#search-results li").first();
    await first.waitFor({ state: "visible" });
    expect(await first.locator("code").textContent()).toBe("slas.update");
    expect(await first.getAttribute("data-anchor")).toBe("tag/slas/operation/slas-update");
    await page.fill("#search", "no such words anywhere");
    await expect.poll(() => page.locator("#search-results li").allTextContents()).toEqual(["Nothing found"]);
  });

  it("asks nothing of any other host, and nothing fails", () => {
    expect(blocked).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  });
});
