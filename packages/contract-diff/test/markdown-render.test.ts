// The Markdown report as a pull request shows it: rendered by a GFM Markdown renderer (marked) and laid out in
// headless Chromium. Tables must come out as tables (escaped pipes included), the summary and the gate's
// verdict on top, info-only operations folded away. Skips, saying why, where no Chromium is installed.
// CONTRACT_DIFF_SCREENSHOT=<file.png> also saves a screenshot of the rendered comment.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadSpec } from "@workapi/spec";
import { marked } from "marked";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffContracts, evaluateGate, formatReport } from "../src/index.js";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = existsSync(executablePath);
if (!hasChromium) {
  console.warn(
    `skipping the Markdown rendering test: no Chromium at ${executablePath} (apt-get install chromium)`,
  );
}

// Close to GitHub's comment style: bordered tables, the same font stack.
const page = (body: string) => `<!doctype html><meta charset="utf-8"><style>
body { font-family: -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; font-size: 14px;
  max-width: 900px; margin: 16px; color: #1f2328 }
table { border-collapse: collapse; margin-bottom: 16px } th, td { border: 1px solid #d1d9e0; padding: 6px 13px }
code { background: #eff1f3; border-radius: 6px; padding: .2em .4em; font-size: 85% }
</style><body>${body}</body>`;

// biome-ignore lint/suspicious/noExplicitAny: the edits walk an untyped JSON document.
type Node = Record<string, any>;

async function report() {
  const base = loadSpec();
  const head = loadSpec();
  const schemas = head.components.schemas as Node;
  Reflect.deleteProperty(schemas.WorksCreateRequest.properties, "body");
  schemas.WorksCreateRequest.properties.title.type = ["string", "integer"];
  Reflect.deleteProperty((head.paths["/works.get"] as Node).get.responses, "404");
  (head.paths as Node)["/works.archive"] = {
    post: { operationId: "works-archive", responses: { "200": { description: "ok" } } },
  };
  const diff = diffContracts(base, head);
  const root = fileURLToPath(new URL("../../..", import.meta.url));
  const gate = await evaluateGate(diff, { root, specFile: `${root}/packages/spec/openapi.json` });
  return formatReport(diff, "markdown", { base: "main (abc1234)", head: "this branch", gate });
}

describe.skipIf(!hasChromium)("the Markdown report rendered as a pull request comment", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("renders a heading, the verdict, one table per operation and the folded info-only operations", async () => {
    const markdown = await report();
    const tab = await browser.newPage({ viewport: { width: 960, height: 900 } });
    await tab.setContent(page(await marked.parse(markdown, { gfm: true })));
    expect(await tab.locator("h2").first().textContent()).toMatch(
      /^Contract review: \d+ errors?, \d+ warnings?, \d+ info/,
    );
    expect(await tab.locator("p > strong").first().textContent()).toMatch(/^Gate: (passed|FAILED)/);
    const headings = await tab.locator("h3").count();
    expect(headings).toBeGreaterThan(2);
    expect(await tab.locator("table").count()).toBe(headings);
    for (const table of await tab.locator("table").all()) {
      expect(await table.locator("th").allTextContents()).toEqual(["Level", "Rule", "Where", "Change"]);
    }
    const body = await tab.locator("body").textContent();
    expect(body).not.toContain("| ---");
    expect(body).toContain("type changed from string to string | integer");
    // The first operation shown has an error; the info-only ones sit in a closed <details>.
    expect(await tab.locator("table").first().locator("td").first().textContent()).toBe("error");
    expect(await tab.locator("details summary").textContent()).toMatch(
      /operations? with info-level changes only/,
    );
    expect(await tab.locator("details table").first().isVisible()).toBe(false);
    if (process.env.CONTRACT_DIFF_SCREENSHOT) {
      await tab.screenshot({ path: process.env.CONTRACT_DIFF_SCREENSHOT, fullPage: true });
    }
    await tab.close();
  }, 60_000);
});
