// The rule index is generated from the rules folder (scripts/rule-index.mjs): adding a rule is adding its module.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ruleIndexSource } from "../scripts/rule-index.mjs";
import { RULES } from "../src/rules/index.js";

const folder = new URL("../src/rules/", import.meta.url);

describe("the rule index", () => {
  it("is what the rules folder generates", () => {
    expect(readFileSync(new URL("index.js", folder), "utf8")).toBe(ruleIndexSource(readdirSync(folder)));
  });

  it("lists each rule module once, by its name, and nothing else", () => {
    const source = ruleIndexSource([
      "index.js",
      "rule.js",
      "support.js",
      "b-c.js",
      "a.js",
      "a-b.js",
      "notes.md",
    ]);
    expect(source).toContain(
      'import a from "./a.js";\nimport aB from "./a-b.js";\nimport bC from "./b-c.js";\n',
    );
    expect(source).toContain("export const RULES = Object.freeze([\n  a,\n  aB,\n  bC,\n]);");
    expect(RULES.map((rule) => `${rule.id}.js`).sort()).toEqual(
      readdirSync(folder)
        .filter((file) => !["index.js", "rule.js", "support.js", "kinds.js", "load.js"].includes(file))
        .sort(),
    );
  });
});
