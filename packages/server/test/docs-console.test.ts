// The docs page as the server serves it, tried as a new user would in headless Chromium, against a seeded server:
// it is readable within a second and weighs at most 150 kB as sent; works.list's console offers the work types as
// choices and its 200 answer is marked as matching the contract; works.create sent as prefilled answers 201, and
// with its title emptied shows the error at `title` without sending anything; the search finds a field and an
// error type; slas.update says that it changed; a reader goes from the search to an answer with the keyboard
// alone. Screenshots go to test-artifacts/. Skips, saying why, where no
// Chromium is installed.
import { mkdirSync } from "node:fs";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { seed } from "../src/seed/index.js";
import { startTestServer, type TestServer } from "./harness.js";

const hasChromium = browserAvailable("the docs console test");
const artifacts = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

/** The bytes the server sends for `path` with `coding` accepted, as they travel (not decoded). */
function sent(url: string, coding: string) {
  return new Promise<{ coding?: string; length: number }>((resolve, reject) => {
    const req = request(url, { headers: { "accept-encoding": coding } }, (res) => {
      let length = 0;
      res.on("data", (chunk: Buffer) => {
        length += chunk.length;
      });
      res.on("end", () => resolve({ coding: res.headers["content-encoding"], length }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe.skipIf(!hasChromium)("the docs page's console, served by a seeded server", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const elsewhere: string[] = [];
  const errors: string[] = [];
  const sentPaths: string[] = [];

  beforeAll(async () => {
    server = await startTestServer("sqlite");
    await seed(server.store, server.org, server.admin, { works: 30 });
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    mkdirSync(artifacts, { recursive: true });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const origin = new URL(server.url).origin;
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`) || url.startsWith("data:")) return route.continue();
      elsewhere.push(url);
      return route.abort("blockedbyclient");
    });
    page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("request", (req) => sentPaths.push(new URL(req.url()).pathname));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens the console of `operationId` with the admin token. */
  async function openConsole(operationId: string) {
    await page.click(`[data-operation="${operationId}"] button.try-open`);
    const form = page.locator(`form.console[data-operation="${operationId}"]`);
    await form.locator('input[name="token"]').fill(server.adminToken);
    return form;
  }

  /** Sends what the console of `form` holds and waits for the answer to show. */
  async function sendAndWait(form: ReturnType<Page["locator"]>, path: string) {
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === path, {
      timeout: 60_000,
    });
    await form.locator('button[name="send"]').click();
    await answered;
    await expect
      .poll(() => form.locator('output[name="status"]').textContent(), { timeout: 30_000 })
      .toMatch(/^\d{3} /);
  }

  it("weighs at most 150 kB as sent, and paints real content within a second", async () => {
    for (const coding of ["br", "gzip"]) {
      const answer = await sent(`${server.url}/docs`, coding);
      expect(answer.coding).toBe(coding);
      console.log(`docs page as sent with ${coding}: ${answer.length} bytes`);
      expect(answer.length).toBeLessThanOrEqual(150_000);
    }
    // The first visit lets the server compress the page once (it keeps the result) and warms Chromium.
    await page.goto(`${server.url}/docs`, { waitUntil: "load" });
    await page.goto(`${server.url}/docs#tag/works/operation/works-list`, { waitUntil: "load" });
    await page.reload({ waitUntil: "load" });
    const paint = await page.evaluate(
      () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
    );
    console.log(`docs page served: first contentful paint at ${Math.round(paint ?? -1)} ms`);
    expect(paint).toBeLessThanOrEqual(1000);
    await expect(page.locator('[id="tag/works/operation/works-list"] h3').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: `${artifacts}docs-served.png` });
  });

  it("offers the work types as choices in works.list's console, and marks the 200 answer as matching", async () => {
    const form = await openConsole("works-list");
    const type = form.locator('.form-field[data-path="type"]');
    const choices = await type.locator("label").allTextContents();
    expect(choices.map((choice) => choice.trim())).toEqual(expect.arrayContaining(["issue", "ticket"]));
    await expect(type.locator('input[value="issue"]').isChecked()).resolves.toBe(true);
    await expect(type.locator('input[value="ticket"]').isChecked()).resolves.toBe(true);
    await expect(form.locator('input[name="base"]').inputValue()).resolves.toBe(server.url);
    await sendAndWait(form, "/works.list");
    expect(await form.locator('output[name="status"]').textContent()).toBe("200 OK");
    expect(await form.locator(".check").getAttribute("class")).toContain("matches");
    expect(await form.locator(".check").textContent()).toBe("Matches the contract's schema for 200.");
    expect(await form.locator(".answer-headers").textContent()).toContain("content-type: application/json");
    expect(await form.locator(".live-curl").textContent()).toContain("type=issue,ticket");
    await form.locator(".answer").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}docs-console-works-list.png` });
  });

  it("sends works.create as prefilled (201), and with its title emptied shows the error at title, sending nothing", async () => {
    const form = await openConsole("works-create");
    await sendAndWait(form, "/works.create");
    expect(await form.locator('output[name="status"]').textContent()).toBe("201 Created");
    expect(await form.locator(".check").textContent()).toBe("Matches the contract's schema for 201.");
    expect(JSON.parse((await form.locator(".answer-body").textContent()) ?? "{}").work).toMatchObject({
      type: "issue",
    });
    const title = form.locator('.form-field[data-path="title"]');
    await title.locator("input").fill("");
    // The samples follow the inputs.
    expect(await form.locator(".live-typescript").textContent()).toContain('title: ""');
    const before = sentPaths.filter((path) => path === "/works.create").length;
    await form.locator('button[name="send"]').click();
    await expect.poll(() => title.locator(".field-error").textContent()).toBe("must not be empty");
    expect(await title.getAttribute("class")).toContain("invalid");
    expect(await form.locator(".console-note").textContent()).toContain("Not sent");
    await page.waitForTimeout(500);
    expect(sentPaths.filter((path) => path === "/works.create").length).toBe(before);
    await title.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}docs-console-title-error.png` });
  });

  it("takes the body as JSON too, checked the same way before sending", async () => {
    const form = page.locator('form.console[data-operation="works-create"]');
    await form.locator('button[name="mode"]').click();
    const text = form.locator('textarea[name="body"]');
    const body = JSON.parse(await text.inputValue());
    expect(body).toMatchObject({ type: "issue", title: "", applies_to_part: "FEAT-2" });
    await text.fill(JSON.stringify({ ...body, type: "bug" }));
    const before = sentPaths.filter((path) => path === "/works.create").length;
    await form.locator('button[name="send"]').click();
    // As the server would, the console names one error at a time: the type first, then the emptied title.
    await expect
      .poll(() => form.locator(".json-errors").textContent())
      .toBe('type: must be one of "incident", "issue", "opportunity", "task", "ticket"');
    await text.fill(JSON.stringify(body));
    await form.locator('button[name="send"]').click();
    await expect.poll(() => form.locator(".json-errors").textContent()).toBe("title: must not be empty");
    expect(sentPaths.filter((path) => path === "/works.create").length).toBe(before);
    await text.fill(JSON.stringify({ ...body, title: "Sent as JSON" }));
    expect(await form.locator(".live-curl").textContent()).toContain('"title": "Sent as JSON"');
    await sendAndWait(form, "/works.create");
    expect(await form.locator('output[name="status"]').textContent()).toBe("201 Created");
    expect(JSON.parse((await form.locator(".answer-body").textContent()) ?? "{}").work.title).toBe(
      "Sent as JSON",
    );
    // Back to the form, which now holds what the JSON said.
    await form.locator('button[name="mode"]').click();
    await expect(form.locator('.form-field[data-path="title"] input').inputValue()).resolves.toBe(
      "Sent as JSON",
    );
  });

  it("finds is_frozen and dev_org_deactivated", async () => {
    for (const query of ["is_frozen", "dev_org_deactivated"]) {
      await page.fill("#search", query);
      const first = page.locator("#search-results li").first();
      await first.waitFor({ state: "visible" });
      expect(await first.locator("code").textContent()).toBe(query);
      await page.screenshot({ path: `${artifacts}docs-search-${query}.png` });
    }
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => location.hash)).toBe("#schema/ErrorDevOrgDeactivated");
  });

  it("says that slas.update changed, and how", async () => {
    await page.goto(`${server.url}/docs#tag/slas/operation/slas-update`, { waitUntil: "load" });
    const section = page.locator('[id="tag/slas/operation/slas-update"]');
    await expect(section.locator(".badge.changed").isVisible()).resolves.toBe(true);
    expect(await section.locator(".changes").textContent()).toContain("slas.update answers 201 (was 200)");
    await page.screenshot({ path: `${artifacts}docs-slas-update.png` });
  });

  it("takes a reader from the search to an answer with the keyboard alone", async () => {
    const tab = await page.context().newPage();
    tab.on("pageerror", (error) => errors.push(error.message));
    await tab.goto(`${server.url}/docs`, { waitUntil: "load" });
    const focused = () => tab.evaluate(() => document.activeElement?.outerHTML.slice(0, 120) ?? "");
    // `/` puts the cursor in the search; Enter goes to the first result, and the focus with it.
    await tab.keyboard.press("/");
    await tab.keyboard.type("works.create");
    await tab.locator("#search-results li").first().waitFor({ state: "visible" });
    await tab.keyboard.press("Enter");
    await expect.poll(() => tab.evaluate(() => location.hash)).toBe("#tag/works/operation/works-create");
    // The next Tab reaches the operation's "Try it"; Enter opens its console, whose first field takes the focus.
    await tab.keyboard.press("Tab");
    expect(await focused()).toContain('class="try-open" data-operation="works-create"');
    await tab.keyboard.press("Enter");
    await expect.poll(focused).toContain('name="base"');
    await tab.keyboard.press("Tab");
    expect(await focused()).toContain('name="token"');
    await tab.keyboard.type(server.adminToken);
    // Enter in a field sends the form (its one submit button), as any form does.
    const answered = tab.waitForResponse((response) => new URL(response.url()).pathname === "/works.create");
    await tab.keyboard.press("Enter");
    await answered;
    const form = tab.locator('form.console[data-operation="works-create"]');
    await expect.poll(() => form.locator('output[name="status"]').textContent()).toBe("201 Created");
    // The answer's body is reached with Tab (it scrolls, so it takes the focus), and copied from its button.
    let steps = 0;
    while (!(await focused()).includes("answer-body") && steps++ < 300) await tab.keyboard.press("Tab");
    expect(await focused()).toContain('class="answer-body"');
    expect(await form.locator(".answer-body").textContent()).toContain('"work"');
    await tab.close();
  });

  it("asks nothing of any other host and throws no error", () => {
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });
});
