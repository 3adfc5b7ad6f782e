// The README shows the examples in examples/ (which `typecheck` compiles): each block marked
// `<!-- example: examples/NAME.ts -->` must be that file, word for word.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");
const shown = [...readme.matchAll(/<!-- example: (examples\/[\w-]+\.ts) -->\n```ts\n([\s\S]*?)```/g)];

describe("the README", () => {
  it("shows every example", () => {
    const examples = readdirSync(new URL("examples/", root)).map((name) => `examples/${name}`);
    expect(shown.map(([, path]) => path).sort()).toEqual(examples.sort());
  });

  it.each(shown.map(([, path, code]) => [path, code]))("shows %s as it is", (path, code) => {
    expect(code).toBe(readFileSync(new URL(path as string, root), "utf8"));
  });

  it("starts with a quick start of five lines", () => {
    expect(shown[0]?.[1]).toBe("examples/quick-start.ts");
    expect(shown[0]?.[2]?.trimEnd().split("\n")).toHaveLength(5);
  });
});
