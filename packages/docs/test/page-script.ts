// The page's script parts (scripts/docs-console/*.js) are plain browser scripts; these helpers run one in a
// fresh context of Node's vm, so that the validator and the samples can be tested without a browser.
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";

const dir = new URL("../src/console/", import.meta.url);

/** Runs the parts `files` in one context and answers the value of `expression` there. */
export function fromPageScript<T>(files: string[], expression: string): T {
  const source = files.map((file) => readFileSync(new URL(file, dir), "utf8")).join("\n");
  return runInNewContext(`"use strict";\n${source}\n;${expression}`, {}) as T;
}
