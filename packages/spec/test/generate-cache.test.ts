// The generators' runner and cache (scripts/generate-run.mjs, scripts/generate-cache.mjs), on generators made
// here in a scratch folder: a generator runs once what it reads is ready; one that declares `reads` runs again
// only when its inputs or what it reads change; only files that differ are written.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as runner from "../../../scripts/generate-run.mjs";

// Typed loosely: the runner's inferred types are those of the repository's own generators.
type Loose = (...args: unknown[]) => unknown;
const produce = runner.produce as unknown as (...args: unknown[]) => Promise<unknown>;
const write = runner.write as unknown as Loose;

const root = mkdtempSync(join(tmpdir(), "workapi-generate-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, "in"));
writeFileSync(join(root, "in", "source.txt"), "one");

const runs: string[] = [];
const source = {
  name: "source",
  inputs: [],
  outputs: ["out/source.txt"],
  reads: ["in"],
  generate: () => {
    runs.push("source");
    const text = readFileSync(join(root, "in", "source.txt"), "utf8");
    return { files: { "out/source.txt": text }, value: { text } };
  },
};
const loud = {
  name: "loud",
  inputs: ["source"],
  outputs: ["out/loud.txt"],
  reads: [],
  generate: async ({ inputs }: { inputs: { source: { text: string } } }) => {
    runs.push("loud");
    return { files: { "out/loud.txt": inputs.source.text.toUpperCase() } };
  },
};
const uncached = {
  name: "uncached",
  inputs: ["source"],
  outputs: ["out/length.txt"],
  generate: ({ inputs }: { inputs: { source: { text: string } } }) => {
    runs.push("uncached");
    return { files: { "out/length.txt": String(inputs.source.text.length) } };
  },
};
const generators = [source, loud, uncached];
const pass = async () => {
  runs.length = 0;
  return write(root, await produce(root, root, { generators })) as string[];
};

describe("the generators' runner", () => {
  it("runs every generator the first time and writes every file", async () => {
    expect(await pass()).toEqual(["out/source.txt", "out/loud.txt", "out/length.txt"]);
    expect(runs.sort()).toEqual(["loud", "source", "uncached"]);
  });

  it("runs only generators without `reads` when nothing changed, and writes nothing", async () => {
    expect(await pass()).toEqual([]);
    expect(runs).toEqual(["uncached"]);
  });

  it("runs a generator again when a file it reads changes, and those reading it when its value changes", async () => {
    writeFileSync(join(root, "in", "source.txt"), "two");
    expect(await pass()).toEqual(["out/source.txt", "out/loud.txt"]);
    expect(runs.sort()).toEqual(["loud", "source", "uncached"]);
    expect(readFileSync(join(root, "out", "loud.txt"), "utf8")).toBe("TWO");
  });

  it("refuses a generator that reads one not run before it", async () => {
    await expect(produce(root, root, { generators: [loud] })).rejects.toThrow(/reads source/);
  });
});
