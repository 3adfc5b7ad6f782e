// The README's rule table is the rules' own: generated from the rule modules, and this test fails when it drifts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { withTable } from "../scripts/rules-table.mjs";
import { RULES } from "../src/rules/index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("README", () => {
  it("has the rule table the rules generate", () => {
    expect(withTable(readme)).toBe(readme);
  });

  it("lists every rule once in its table", () => {
    const table = readme.slice(readme.indexOf("<!-- rules:start"), readme.indexOf("<!-- rules:end -->"));
    for (const rule of RULES)
      expect(table.split(`| \`${rule.id}\` | ${rule.level} |`).length - 1, rule.id).toBe(1);
  });
});
