// The README documents every rule of the catalogue with its level and example, and nothing else.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RULES } from "../src/index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const rows = [...readme.matchAll(/^\| `([a-z-]+)` \| (error|warning|info) \| (.+) \|$/gm)].map(
  ([, rule, level, example]) => ({ rule, level, example: example?.replaceAll("\\|", "|") }),
);

describe("README", () => {
  it("lists every rule once, with the level and example of the catalogue", () => {
    expect(rows.map((row) => row.rule)).toEqual(Object.keys(RULES));
    for (const row of rows) {
      expect({ level: row.level, example: row.example }).toEqual(RULES[row.rule as string]);
    }
  });
});
