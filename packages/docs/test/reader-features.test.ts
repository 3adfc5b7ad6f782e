// What readers asked for, tried in headless Chromium on the page served as the server serves it: copy buttons
// on the code samples and on the console's answer; a deep link for every field, which opens the closed part it
// lies in and scrolls to it; the console's last inputs kept per operation for the tab's life; a dark theme
// switch, remembered. Skips, saying why, where no Chromium is installed.
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { servePage } from "./page-server.js";

const hasChromium = browserAvailable("the docs reader features test");

describe.skipIf(!hasChromium)("what the docs page offers its readers", () => {
  let browser: Browser;
  let context: BrowserContext;
  let served: Awaited<ReturnType<typeof servePage>>;
  const errors: string[] = [];
  beforeAll(async () => {
    served = await servePage();
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: served.origin });
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const open = async (hash = "") => {
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${served.origin}/docs${hash}`, { waitUntil: "load" });
    return page;
  };
  const clipboard = (page: Awaited<ReturnType<typeof open>>) =>
    page.evaluate(() => navigator.clipboard.readText());

  it("copies a code sample, and the console's answer", async () => {
    const page = await open("#tag/works/operation/works-list");
    const section = page.locator('[id="tag/works/operation/works-list"]');
    const sample = section.locator("details.sample[open] > pre");
    await section.locator("details.sample[open] > button.copy").click();
    await expect.poll(() => clipboard(page)).toBe(await sample.textContent());
    await expect(section.locator("details.sample[open] > button.copy").textContent()).resolves.toBe("Copied");
    // The answer's button: this server answers works.list with a 404 page, which is copied as it came.
    await section.locator("button.try-open").click();
    const form = page.locator('form.console[data-operation="works-list"]');
    await form.locator('button[name="send"]').click();
    await expect.poll(() => form.locator('output[name="status"]').textContent()).toMatch(/^404/);
    await form.getByRole("button", { name: "Copy the answer" }).click();
    await expect.poll(() => clipboard(page)).toBe(await form.locator(".answer-body").textContent());
    await page.close();
  });

  it("links every field to itself, and a link opens the closed part it lies in", async () => {
    const page = await open();
    // Each field's name is a link to its own anchor.
    const bad = await page.evaluate(() =>
      Array.from(document.querySelectorAll("ul.fields > li"))
        .filter((li) => !li.id || li.querySelector(":scope > a")?.getAttribute("href") !== `#${li.id}`)
        .map((li) => li.outerHTML.slice(0, 80)),
    );
    expect(bad).toEqual([]);
    // A field far down the page, in a closed part (as a closed answer's fields would be): the link opens the
    // part and brings the field into view.
    const field = await page.evaluate(() => {
      const li = document.querySelector('[id="schema/Work"] ul.fields > li[id]');
      const list = li?.parentElement;
      if (!li || !list) return "";
      const closed = document.createElement("details");
      closed.append(Object.assign(document.createElement("summary"), { textContent: "Fields" }));
      list.replaceWith(closed);
      closed.append(list);
      return li.id;
    });
    expect(field).not.toBe("");
    await page.evaluate((id) => {
      location.hash = id;
    }, field);
    const target = page.locator(`[id="${field}"]`);
    await expect.poll(() => target.isVisible()).toBe(true);
    await expect.poll(() => target.evaluate((li) => li.closest("details")?.open)).toBe(true);
    await expect.poll(() => target.evaluate((li) => li.getBoundingClientRect().top)).toBeLessThan(900);
    await expect
      .poll(() => target.evaluate((li) => li.getBoundingClientRect().top))
      .toBeGreaterThanOrEqual(0);
    // Followed from another page, the link leads there too.
    const other = await open(`#${field}`);
    await expect.poll(() => other.locator(`[id="${field}"]`).isVisible()).toBe(true);
    await page.close();
    await other.close();
  });

  it("keeps the console's last inputs per operation for the tab's life", async () => {
    const page = await open("#tag/works/operation/works-create");
    const form = page.locator('form.console[data-operation="works-create"]');
    const title = form.getByRole("textbox", { name: "title", exact: true });
    await page.click('[data-operation="works-create"] button.try-open');
    await title.fill("Kept for the tab");
    // Closed and opened again: the title is as it was typed; another operation's console is its own.
    await page.click('[data-operation="works-create"] button.try-open');
    await page.click('[data-operation="works-create"] button.try-open');
    await expect(title.inputValue()).resolves.toBe("Kept for the tab");
    await page.reload({ waitUntil: "load" });
    await page.click('[data-operation="works-create"] button.try-open');
    await expect(title.inputValue()).resolves.toBe("Kept for the tab");
    // Another tab starts from the contract's examples.
    const other = await open("#tag/works/operation/works-create");
    await other.click('[data-operation="works-create"] button.try-open');
    const otherTitle = other
      .locator('form.console[data-operation="works-create"]')
      .getByRole("textbox", { name: "title", exact: true });
    await expect(otherTitle.inputValue()).resolves.not.toBe("Kept for the tab");
    await page.close();
    await other.close();
  });

  it("switches to the dark theme and remembers it", async () => {
    const page = await open();
    const theme = page.locator("button.theme");
    await expect(theme.getAttribute("aria-pressed")).resolves.toBe("false");
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await theme.click();
    await expect(theme.getAttribute("aria-pressed")).resolves.toBe("true");
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(dark).not.toBe(light);
    await page.reload({ waitUntil: "load" });
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe("dark");
    await expect(theme.getAttribute("aria-pressed")).resolves.toBe("true");
    await theme.click();
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe("light");
    await page.close();
    // With no choice made, the page follows the system's scheme, and the switch says which it shows.
    const system = await browser.newContext({ colorScheme: "dark" });
    const dim = await system.newPage();
    await dim.goto(`${served.origin}/docs`, { waitUntil: "load" });
    await expect(dim.locator("button.theme").getAttribute("aria-pressed")).resolves.toBe("true");
    await expect(dim.evaluate(() => getComputedStyle(document.body).backgroundColor)).resolves.toBe(dark);
    await system.close();
    expect(errors).toEqual([]);
  });
});
