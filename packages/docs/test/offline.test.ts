// The docs page works with no network but its own origin: served from a local HTTP server, with every other
// request blocked, it loads with no failed request, shows a deep-linked operation with its scope line and
// code samples, and leaves screenshots in test-artifacts/ for a person to look at. Skips, saying why, where
// no Chromium is installed.
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { loadSpec } from "@workapi/spec";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { docsPath } from "../index.js";

const hasChromium = browserAvailable("the offline docs test");
const artifacts = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

describe.skipIf(!hasChromium)("the docs page offline", () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    const html = readFileSync(docsPath);
    // Every path answers the page, as a server of a single-page reference would.
    server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: chromiumArgs,
    });
    mkdirSync(artifacts, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("loads with only its own origin reachable and follows a deep link to an operation", async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const blocked: string[] = [];
    const failed: string[] = [];
    const errors: string[] = [];
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`)) return route.continue();
      blocked.push(url);
      return route.abort("blockedbyclient");
    });
    const page = await context.newPage();
    page.on("requestfailed", (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on("pageerror", (error) => errors.push(error.message));

    await page.goto(`${origin}/`, { waitUntil: "networkidle" });
    await page.waitForSelector('[data-section-id="section/Changelog"]', { timeout: 60_000 });
    await page.screenshot({ path: `${artifacts}docs-page.png` });

    // A link to an operation (the form the page's own links take, #tag/<tag>/operation/<operationId>), opened afresh as a
    // reader who was sent it would, shows that operation.
    const operation = loadSpec().paths["/tags.list"]?.get as {
      operationId: string;
      summary: string;
      "x-codeSamples": Array<{ label: string; source: string }>;
    };
    const link = `#tag/tags/operation/${operation.operationId}`;
    await page.close();
    const reader = await context.newPage();
    reader.on("requestfailed", (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    reader.on("pageerror", (error) => errors.push(error.message));
    await reader.goto(`${origin}/${link}`, { waitUntil: "networkidle" });
    const section = reader.locator(`[data-section-id="tag/tags/operation/${operation.operationId}"]`).first();
    // Redoc renders the page in the browser: on a busy machine that takes a while.
    await section.waitFor({ state: "visible", timeout: 60_000 });
    // The page links to the operation the same way (its sidebar entry), so the form is the page's own.
    expect(await reader.locator(`a[href="${link}"]`).count()).toBeGreaterThan(0);
    await expect(section.isVisible()).resolves.toBe(true);
    expect(await section.textContent()).toContain(operation.summary);
    expect(await section.textContent()).toContain("Scopes: tag:read, tag:write or tag:all");
    // Its samples: the curl command is the one the contract carries.
    const curl = operation["x-codeSamples"].find((sample) => sample.label === "curl");
    expect(curl).toBeDefined();
    expect((await reader.textContent("body")) ?? "").toContain(curl?.source.split("\n")[0]);
    await reader.waitForTimeout(500); // let the code panel paint before the picture is taken
    await reader.screenshot({ path: `${artifacts}docs-operation.png` });
    // The samples' tabs offer the TypeScript sample too, and the operation's panel shows it.
    const typescript = operation["x-codeSamples"].find((sample) => sample.label === "TypeScript");
    expect(typescript).toBeDefined();
    await section.getByText("TypeScript", { exact: true }).first().click();
    await section.getByText("createClient({").first().waitFor({ state: "visible" });
    const call = typescript?.source.split("\n").find((line) => line.includes("await api."));
    expect(call).toBeDefined();
    expect((await section.textContent()) ?? "").toContain(call?.trim());
    await reader.waitForTimeout(500);
    await reader.screenshot({ path: `${artifacts}docs-operation-typescript.png` });

    expect(blocked).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
