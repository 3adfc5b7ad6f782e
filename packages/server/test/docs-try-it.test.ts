// The docs page as the server serves it, in headless Chromium: the "Try it" panel calls the server that served
// the page (its own origin, filled in), with the token a reader pastes (kept in sessionStorage only), and shows
// the answer's status, headers and body; the Servers box shows that origin too; the page asks nothing of any
// other host. Skips, saying why, where no Chromium is installed.
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { startTestServer, type TestServer } from "./harness.js";

const hasChromium = browserAvailable('the docs "Try it" test');

describe.skipIf(!hasChromium)("the docs page's Try it panel, served by the server", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const elsewhere: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer("sqlite");
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: chromiumArgs,
    });
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
    await page.goto(`${server.url}/docs#tag/tags/operation/tags-list`, { waitUntil: "networkidle" });
    await page.waitForSelector('[data-section-id="tag/tags/operation/tags-list"]', { timeout: 60_000 });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens the panel on `operation` (its name), sends it and answers what the panel shows. */
  async function send(operation: string, body?: string) {
    const form = page.locator("#try-it");
    if (await form.isHidden()) await page.click("#try-it-toggle");
    const select = form.locator('select[name="operation"]');
    const label = await select
      .locator("option")
      .filter({ hasText: `${operation} · ` })
      .first()
      .textContent();
    await select.selectOption({ label: label ?? "" });
    if (body !== undefined) await form.locator('textarea[name="body"]').fill(body);
    await form.getByRole("button", { name: "Send" }).click();
    await page.waitForFunction(() => {
      const status = document.querySelector<HTMLOutputElement>('#try-it output[name="status"]');
      return status !== null && /^\d{3} /.test(status.value);
    });
    return {
      status: await form.locator('output[name="status"]').textContent(),
      headers: await form.locator(".try-it-headers").textContent(),
      body: JSON.parse((await form.locator(".try-it-body").textContent()) ?? "null"),
    };
  }

  it("fills in the page's own origin, for the panel and the Servers box", async () => {
    await page.click("#try-it-toggle");
    await expect(page.inputValue('#try-it input[name="base"]')).resolves.toBe(server.url);
    // The operation the address names is the one the panel opens on.
    const picked = await page.locator('#try-it select[name="operation"] option:checked').textContent();
    expect(picked).toContain("tags.list · GET /tags.list");
    // The Servers box of the operation: the served origin, not the contract's server (whose address the
    // examples of other operations still hold: artifacts.prepare answers an upload URL on it).
    const box = (await page.textContent('[data-section-id="tag/tags/operation/tags-list"]')) ?? "";
    expect(box).toContain(`${server.url}/tags.list`);
    expect(box).not.toContain("http://localhost:8080");
    expect((await page.textContent("#redoc")) ?? "").not.toContain("http://localhost:8080/tags.list");
  });

  it("sends tags.list with the pasted token, kept in sessionStorage only", async () => {
    await page.fill('#try-it input[name="token"]', server.adminToken);
    const answer = await send("tags.list");
    expect(answer.status).toBe("200 OK");
    expect(answer.headers).toContain("content-type: application/json");
    expect(answer.body).toMatchObject({ tags: expect.any(Array) });
    const kept = await page.evaluate(() => ({
      session: Object.values({ ...sessionStorage }),
      local: Object.values({ ...localStorage }),
    }));
    expect(kept.session).toContain(server.adminToken);
    expect(kept.local).not.toContain(server.adminToken);
  });

  it("sends a works.create with an edited JSON body and shows the 201 and the new work item", async () => {
    const part = await server.call("POST", "/parts.create", {
      body: { type: "product", name: "Try it", owned_by: [server.admin.display_id] },
    });
    expect(part.status).toBe(201);
    const body = JSON.stringify({
      type: "issue",
      title: "Sent from the docs page",
      applies_to_part: part.body.part.id,
      owned_by: [server.admin.display_id],
    });
    const answer = await send("works.create", body);
    expect(answer.status).toBe("201 Created");
    expect(answer.body.work).toMatchObject({ type: "issue", title: "Sent from the docs page" });
  });

  it("asks nothing of any other host and throws no error", () => {
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });
});
