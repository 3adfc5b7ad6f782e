// The page as axe-core (the accessibility engine browsers' audits use) sees it in headless Chromium: no
// violation of any impact with a console open, with search results (or none) showing, on the changelog, and in the dark
// theme. The console's fields are named by their property names, say whether they are required, and announce
// their errors (aria-invalid, aria-describedby pointing at the message). Opened as a file, offline. Skips,
// saying why, where no Chromium is installed.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { docsPath } from "../index.js";

const hasChromium = browserAvailable("the docs accessibility test");
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type Violation = { id: string; impact: string; nodes: Array<{ target: string[] }> };

/**
 * axe's violations on `page` now, each as `rule (impact): where`. Every part of the page is laid out for the
 * audit: the page lays out the parts out of view only as they come near it (content-visibility: auto, see
 * page.css), and axe reads colors and contrast from the layout, which such a part does not have yet. So the
 * audit sees every part as a reader scrolled to it would.
 */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.addScriptTag({ content: axeSource });
    await page.addStyleTag({ content: "section { content-visibility: visible !important; }" });
  }
  const found = await page.evaluate(
    async () =>
      (await (window as unknown as { axe: { run: () => Promise<{ violations: Violation[] }> } }).axe.run())
        .violations,
  );
  return found.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

describe.skipIf(!hasChromium)("the docs page's accessibility", () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    const context = await browser.newContext({ offline: true, viewport: { width: 1400, height: 1000 } });
    page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("has no violation with works.create's console open and search results showing", async () => {
    await page.goto(`${docsPath.href}#tag/works/operation/works-create`, { waitUntil: "load" });
    await page.click('[data-operation="works-create"] button.try-open');
    await page.locator('form.console[data-operation="works-create"]').waitFor();
    await page.fill("#search", "title");
    await page.locator("#search-results li").first().waitFor({ state: "visible" });
    expect(await violations(page)).toEqual([]);
    await page.fill("#search", "no such words anywhere");
    await expect.poll(() => page.locator("#search-results li").allTextContents()).toEqual(["Nothing found"]);
    expect(await violations(page)).toEqual([]);
  }, 120_000);

  it("names each field by its property, says which are required, and announces errors at them", async () => {
    const form = page.locator('form.console[data-operation="works-create"]');
    const title = form.getByRole("textbox", { name: "title", exact: true });
    await expect(title.getAttribute("aria-required")).resolves.toBe("true");
    await expect(form.getByRole("combobox", { name: "type", exact: true }).count()).resolves.toBe(1);
    await title.fill("");
    await form.locator('button[name="send"]').click();
    await expect.poll(() => title.getAttribute("aria-invalid")).toBe("true");
    const described = (await title.getAttribute("aria-describedby")) ?? "";
    const said = await page.evaluate(
      (ids) => ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" | "),
      described.split(" "),
    );
    expect(said).toBe("required | must not be empty");
    // The errors shown, the page still has no violation.
    expect(await violations(page)).toEqual([]);
  }, 120_000);

  it("has no violation on the changelog, nor in the dark theme", async () => {
    await page.goto(`${docsPath.href}#section/Changelog`, { waitUntil: "load" });
    await expect(page.locator('[id="section/Changelog"]').isVisible()).resolves.toBe(true);
    expect(await violations(page)).toEqual([]);
    await page.click("button.theme");
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe("dark");
    // Another console (works.create's, still open, would close).
    await page.click('[data-operation="works-list"] button.try-open');
    await page.locator('form.console[data-operation="works-list"]').waitFor();
    expect(await violations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
