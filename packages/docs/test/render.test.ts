// Renders the reference page in headless Chromium with the network cut off and checks that every operation
// of the contract appears on it. Skips, saying why, where no Chromium is installed.
import { loadSpec } from "@workapi/spec";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { docsPath } from "../index.js";

const hasChromium = browserAvailable("the docs rendering test");

describe.skipIf(!hasChromium)("the docs page in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: chromiumArgs,
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows every operation with no network", async () => {
    const context = await browser.newContext({ offline: true });
    const page = await context.newPage();
    const external: string[] = [];
    // Everything the page needs is inline: no script, style, font, image or data request may leave it.
    page.on("request", (request) => {
      if (!/^(file|data|blob):/.test(request.url()))
        external.push(`${request.resourceType()} ${request.url()}`);
    });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(docsPath.href, { waitUntil: "load" });
    const spec = loadSpec();
    const byTag = new Map<string, Array<{ operationId: string; summary: string }>>();
    for (const item of Object.values(spec.paths)) {
      for (const operation of Object.values(item) as Array<{
        operationId: string;
        summary: string;
        tags: string[];
      }>) {
        for (const tag of operation.tags) byTag.set(tag, [...(byTag.get(tag) ?? []), operation]);
      }
    }
    expect([...byTag.values()].flat().length).toBeGreaterThan(20);
    const missing: string[] = [];
    for (const [tag, operations] of byTag) {
      // The page renders every operation, each in a section of its tag's.
      await page.waitForSelector(`[data-section-id^="tag/${tag}/operation/"]`, { timeout: 60_000 });
      const shown = await page.$$eval(`[data-section-id^="tag/${tag}/operation/"]`, (nodes) =>
        nodes.map((node) => node.getAttribute("data-section-id")),
      );
      const text = (await page.textContent("body")) ?? "";
      for (const operation of operations) {
        if (!shown.includes(`tag/${tag}/operation/${operation.operationId}`))
          missing.push(operation.operationId);
        if (!text.includes(operation.summary)) missing.push(`${operation.operationId} (summary)`);
      }
    }
    expect(missing).toEqual([]);
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    await context.close();
  }, 120_000);
});
