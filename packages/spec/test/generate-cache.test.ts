// The generators' runner and cache (scripts/generate-run.mjs, scripts/generate-cache.mjs), on generators made
// here in a scratch folder: a generator runs once what it reads is ready (its files, when made later, after its
// readers start); one that declares `reads` runs again only when its inputs or what it reads change; only files
// that differ are written.
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

  it("starts the readers of a generator whose files come later before making its files", async () => {
    const order: string[] = [];
    const late = {
      name: "late",
      inputs: [],
      outputs: ["out/late.txt"],
      generate: () => ({
        value: "late value",
        files: () => {
          order.push("late files");
          return { "out/late.txt": "late" };
        },
      }),
    };
    const reader = {
      name: "reader",
      inputs: ["late"],
      outputs: ["out/reader.txt"],
      generate: ({ inputs }: { inputs: { late: string } }) => {
        order.push("reader");
        return { files: { "out/reader.txt": inputs.late } };
      },
    };
    const produced = await produce(root, root, { generators: [late, reader] });
    expect(order).toEqual(["reader", "late files"]);
    expect(write(root, produced)).toEqual(["out/late.txt", "out/reader.txt"]);
    expect(readFileSync(join(root, "out", "reader.txt"), "utf8")).toBe("late value");
  });

  it("fails the run when a generator whose value others read fails", async () => {
    const failing = {
      name: "failing",
      inputs: [],
      outputs: ["out/failing.txt"],
      generate: async () => {
        throw new Error("no contract");
      },
    };
    const reader = { ...loud, name: "reader", inputs: ["failing"] };
    await expect(produce(root, root, { generators: [failing, reader] })).rejects.toThrow(/no contract/);
  });

  it("refuses a generator that reads one not run before it", async () => {
    await expect(produce(root, root, { generators: [loud] })).rejects.toThrow(/reads source/);
  });
});
