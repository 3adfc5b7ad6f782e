// What the built page tells a reader without being run: every operation's text in its HTML, before any script;
// its weight, raw and as the server sends it; its icon, the packages' version, a changelog of contract
// changes; a console entry for every operation, and a search index that knows fields and error types.
import { readFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { loadSpec } from "@workapi/spec";
import { describe, expect, it } from "vitest";
import { consolePath, faviconPath, readDocsHtml } from "../index.js";
import { consoleData } from "./console-data.js";

const html = readDocsHtml();
const version = (pkg: string) =>
  JSON.parse(readFileSync(new URL(`../../${pkg}/package.json`, import.meta.url), "utf8")).version;
const spec = loadSpec();
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item ?? {}).map(([method, op]) => ({
    path,
    method,
    ...(op as { operationId: string; summary: string; tags: string[] }),
  })),
);
const data = consoleData<{ operations: Array<{ id: string; params: unknown[] }> }>();

// The budget of issue 45: the page at most 1 MB raw and 150 kB as transferred (the server sends brotli at quality
// 9, or gzip); the console's data and checks (console.js) come only when a console opens.
const RAW_CEILING = 1_000_000;
const SENT_CEILING = 150_000;

describe("the built docs page", () => {
  it(`weighs at most ${RAW_CEILING} bytes raw and ${SENT_CEILING} compressed as the server sends it`, () => {
    const bytes = Buffer.from(html);
    expect(bytes.length).toBeLessThanOrEqual(RAW_CEILING);
    const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
    expect(brotli.length).toBeLessThanOrEqual(SENT_CEILING);
    expect(gzipSync(bytes, { level: 9 }).length).toBeLessThanOrEqual(SENT_CEILING);
  });

  it("leaves the console's data and checks to console.js, and renders each named schema once", () => {
    expect(html).not.toContain("docs-data");
    expect(readFileSync(consolePath, "utf8")).toContain("globalThis.workapiConsole");
    for (const name of Object.keys(spec.components?.schemas ?? {})) {
      expect(html.split(`id="schema/${name}"`).length - 1).toBe(1);
    }
  });

  it("holds every operation's summary, method and path in its HTML, before any script", () => {
    // The one script before the content (in the head) only sets the theme the reader chose.
    const beforeScripts = html.slice(0, html.indexOf("<script", html.indexOf("<main")));
    expect(operations.length).toBeGreaterThan(90);
    const missing = operations.filter((op) => {
      const start = beforeScripts.indexOf(`id="tag/${op.tags[0]}/operation/${op.operationId}"`);
      const part = beforeScripts.slice(start, beforeScripts.indexOf("</section>", start));
      return (
        start < 0 ||
        !part.includes(op.summary.replaceAll("'", "&#39;")) ||
        !part.includes(`<code class="path">${op.path}</code>`)
      );
    });
    expect(missing.map((op) => op.operationId)).toEqual([]);
  });

  it("links its icon inline, the same SVG the server answers at /favicon.ico", () => {
    const svg = readFileSync(faviconPath, "utf8").trim();
    expect(html).toContain(
      `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(svg)}">`,
    );
  });

  it("says the packages' version, which the bundle carries", () => {
    expect(version("docs")).toBe(version("spec"));
    expect(spec.info.version).toBe(version("spec"));
    expect(html).toContain(`<span class="version">${version("spec")}</span>`);
    expect(html).toContain(`workapi work-management interface (${version("spec")})`);
  });

  it("has a changelog of contract changes, not of the packages' changesets", () => {
    expect(html).toContain('id="section/Changelog"');
    expect(html).toContain("What changed in the contract, release by release");
    expect(html).not.toMatch(/"@workapi\/[a-z-]+": (major|minor|patch)/);
  });

  it("gives the console every operation of the contract, in order, with its parameters", () => {
    expect(data.operations.map((op) => op.id)).toEqual(operations.map((op) => op.operationId));
    const list = data.operations.find((op) => op.id === "works-list");
    const worksList = spec.paths["/works.list"] as unknown as { get: { parameters: unknown[] } };
    expect(list?.params.length).toBe(worksList.get.parameters.length);
  });

  it("marks what the search indexes: schema fields and error types, each with an anchor", () => {
    expect(html).toContain('id="schema/Work/is_frozen"');
    expect(html).toMatch(
      /<section class="schema" id="schema\/ErrorDevOrgDeactivated" data-error-type="dev_org_deactivated">/,
    );
  });
});
