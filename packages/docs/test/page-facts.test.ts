// What the built page tells a reader without being run: its weight, its icon, the packages' version, a
// changelog of contract changes, and a Try it entry for every operation of the contract.
import { readFileSync } from "node:fs";
import { loadSpec } from "@workapi/spec";
import { describe, expect, it } from "vitest";
import { faviconPath, readDocsHtml } from "../index.js";

const html = readDocsHtml();
const version = (pkg: string) =>
  JSON.parse(readFileSync(new URL(`../../${pkg}/package.json`, import.meta.url), "utf8")).version;

// The page's weight, raw: Redoc's script, the contract with its samples and the Try it panel. Past this, look at
// what grew (packages/docs/README.md, "Weight", tells what each part weighs).
const CEILING = 1_500_000;

describe("the built docs page", () => {
  it(`weighs at most ${CEILING} bytes`, () => {
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(CEILING);
  });

  it("links its icon inline, the same SVG the server answers at /favicon.ico", () => {
    const svg = readFileSync(faviconPath, "utf8").trim();
    expect(html).toContain(
      `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(svg)}">`,
    );
  });

  it("says the packages' version, which the bundle carries", () => {
    expect(version("docs")).toBe(version("spec"));
    expect(loadSpec().info.version).toBe(version("spec"));
    expect(html).toContain(
      `"info":{"title":"workapi work-management interface","version":"${version("spec")}"`,
    );
    expect(html).toContain(`workapi work-management interface (${version("spec")})`);
  });

  it("has a changelog of contract changes, not of the packages' changesets", () => {
    expect(html).toContain("What changed in the contract, release by release");
    expect(html).not.toMatch(/"@workapi\/[a-z-]+": (major|minor|patch)/);
  });

  it("offers every operation of the contract in its Try it panel", () => {
    const data = html.match(/<script type="application\/json" id="try-it-data">(.*?)<\/script>/s)?.[1];
    const { operations } = JSON.parse(data ?? "{}") as { operations: Array<{ id: string }> };
    const ids = Object.values(loadSpec().paths).flatMap((item) =>
      Object.values(item ?? {}).flatMap((op) =>
        typeof op === "object" && op !== null && "operationId" in op ? [op.operationId] : [],
      ),
    );
    expect(operations.map((op) => op.id)).toEqual(ids);
  });
});
