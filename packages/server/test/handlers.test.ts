// Every released operation of the contract is routed to a handler, and every handler serves an operation (an
// operation marked x-unreleased may have none yet: it answers its examples, src/http/example-only.ts); each family
// of operations (the first segment of the name: `tags` of `tags.list`) has one handler file and one test file
// named after it: `tags.*` -> src/operations/tags.ts -> test/operations/tags.test.ts, and nothing else; each
// operation has a test block named after it (`describe("tags.list", ...)`).
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadContract } from "../src/core/contract.js";
import { exampleOnlyOperations } from "../src/http/example-only.js";
import { handlers } from "../src/operations/index.js";

const contract = loadContract();
const allNames = [...new Set(contract.operations.map((operation) => operation.name))].sort();
const exampleOnly = new Set(
  exampleOnlyOperations(contract.operations, (name) => name in handlers).map((o) => o.name),
);
// What must have a handler, a family file and a test block: every operation but the example-only ones.
const names = allNames.filter((name) => !exampleOnly.has(name));
const families = [...new Set(names.map((name) => name.split(".")[0] as string))].sort();
const files = (folder: string, suffix: string) =>
  readdirSync(new URL(folder, import.meta.url))
    .filter((file) => file.endsWith(suffix))
    .map((file) => file.slice(0, -suffix.length))
    .sort();

describe("handlers", () => {
  it("serve only operations of the contract", () => {
    expect(Object.keys(handlers).filter((name) => !allNames.includes(name))).toEqual([]);
  });

  it("exist for every released operation of the contract", () => {
    const released = contract.operations.filter((operation) => !operation.unreleased);
    expect([...new Set(released.map((o) => o.name))].filter((name) => !(name in handlers))).toEqual([]);
  });

  it("are missing only on operations that answer their examples, named here", () => {
    if (exampleOnly.size > 0) console.info(`example-only operations: ${[...exampleOnly].join(", ")}`);
    expect(allNames.filter((name) => !(name in handlers))).toEqual([...exampleOnly]);
  });
});

describe("one name from contract to test", () => {
  it("has a handler file for every family of the contract, and no other file beside the index", () => {
    expect(files("../src/operations/", ".ts").filter((file) => file !== "index")).toEqual(families);
  });

  it("keeps each operation's handler in its family's file", async () => {
    for (const family of families) {
      const module = (await import(`../src/operations/${family}.ts`)) as Record<string, object>;
      const served = Object.values(module).flatMap((value) => Object.keys(value));
      const expected = names.filter((name) => name.split(".")[0] === family);
      expect(served.sort(), family).toEqual(expected);
    }
  });

  it("has one test block named after every operation", () => {
    const titles = files("./operations/", ".test.ts").flatMap((file) =>
      [
        ...readFileSync(new URL(`./operations/${file}.test.ts`, import.meta.url), "utf8").matchAll(
          /\bdescribe\("([^"]+)"/g,
        ),
      ].map((match) => match[1] as string),
    );
    const blocks = (name: string) => titles.filter((title) => title === name).length;
    expect(names.filter((name) => blocks(name) !== 1)).toEqual([]);
  });

  it("has a test file for every family, and every operation test file is named after a family", () => {
    const tests = files("./operations/", ".test.ts");
    expect(families.filter((family) => !tests.includes(family))).toEqual([]);
    // A family's tests may be split by aspect: `works.export.test.ts` belongs to `works`.
    expect(tests.filter((file) => !families.includes(file.split(".")[0] as string))).toEqual([]);
  });
});
