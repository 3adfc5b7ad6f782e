// Every operation's console, built from the contract, opens filled with the contract's examples and passes its
// own check: the form holds each JSON body example exactly (as the JSON editor shows it), and nothing the form
// prefills is refused. So the form loses nothing of what the contract says and the check refuses nothing it
// allows. Headless Chromium, offline. Skips, saying why, where no Chromium is installed.
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { docsPath } from "../index.js";
import { consoleData } from "./console-data.js";

const hasChromium = browserAvailable("the docs console forms test");
const data = consoleData<{ operations: Array<{ id: string; body?: { type: string; example?: unknown } }> }>();

describe.skipIf(!hasChromium)("every operation's console", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("opens with the contract's examples, holds them exactly, and passes its own check", async () => {
    const context = await browser.newContext({ offline: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(docsPath.href, { waitUntil: "load" });
    // The first console loads console.js; the rest open at once.
    await page.click("button.try-open");
    await page.waitForSelector("form.console");
    await page.click("button.try-open");
    // Each console is opened, read and checked by its own buttons, in the page (one round trip, not hundreds).
    const { bodies, refused } = await page.evaluate((operations) => {
      const bodies: Array<[string, unknown]> = [];
      const refused: Array<[string, string[]]> = [];
      for (const operation of operations) {
        const button = document.querySelector<HTMLButtonElement>(
          `button.try-open[data-operation="${operation.id}"]`,
        );
        button?.click();
        const form = document.querySelector<HTMLFormElement>(
          `form.console[data-operation="${operation.id}"]`,
        );
        if (!form) {
          refused.push([operation.id, ["no console"]]);
          continue;
        }
        const mode = form.querySelector<HTMLButtonElement>('button[name="mode"]');
        if (operation.body?.type === "application/json" && mode) {
          mode.click();
          bodies.push([
            operation.id,
            JSON.parse(form.querySelector<HTMLTextAreaElement>('textarea[name="body"]')?.value ?? "null"),
          ]);
          mode.click();
        }
        const send = form.querySelector<HTMLButtonElement>('button[name="send"]');
        // Opened as a file, the page has no server to send to: the check runs all the same, first.
        if (send && !send.disabled) {
          send.click();
          if (form.querySelector(".console-note")?.textContent) {
            const said = Array.from(form.querySelectorAll(".field-error, .json-errors li")).map(
              (node) => node.textContent ?? "",
            );
            refused.push([operation.id, said.filter(Boolean)]);
          }
        }
        button?.click();
      }
      return { bodies, refused };
    }, data.operations);
    const examples = data.operations
      .filter((operation) => operation.body?.type === "application/json")
      .map((operation) => [operation.id, operation.body?.example]);
    expect(bodies.length).toBeGreaterThan(40);
    expect(bodies).toEqual(examples);
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
