// The rooms of src/ keep to the house plan (the repository's ARCHITECTURE.md, "Which way imports point"):
// the store stands on nothing above it, the write thread's code has a room of its own and "worker" names only
// the processes of `serve --workers N` (./src/cluster.ts), and no value is forced into another type on its way
// between rooms.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const src = new URL("../src/", import.meta.url).pathname;

/** Every TypeScript file under `dir`, as a path from src/. */
function sources(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [relative(src, path)] : [];
  });
}

/** The relative modules `file` imports, as paths from src/. */
function imports(file: string): string[] {
  const text = readFileSync(join(src, file), "utf8");
  return [...text.matchAll(/from "(\.{1,2}\/[^"]+)"/g)].map((match) =>
    relative(src, join(src, file, "..", match[1] as string)),
  );
}

describe("the rooms of the server", () => {
  it("have the store import nothing from the rooms above it", () => {
    const above = /^(core|http|operations|seed|write-thread)\/|^[^/]+$/;
    const reaching = sources()
      .filter((file) => file.startsWith("store/"))
      .flatMap((file) => imports(file).map((target) => `${file} -> ${target}`))
      .filter((edge) => above.test(edge.split(" -> ")[1] as string));
    expect(reaching).toEqual([]);
  });

  it("keep thread code in its room: no top-level file is named after a worker", () => {
    const topLevel = sources().filter((file) => !file.includes("/"));
    expect(topLevel.filter((file) => /worker/.test(file))).toEqual([]);
  });

  it("build a handler's context in the executor alone", () => {
    const building = sources().filter((file) => /\bcontextFor\(/.test(readFileSync(join(src, file), "utf8")));
    expect(building.sort()).toEqual(["core/context.ts", "core/executor.ts"]);
  });

  it("force no value into another type with a double cast", () => {
    const casts = sources().filter((file) => readFileSync(join(src, file), "utf8").includes("as unknown as"));
    expect(casts).toEqual([]);
  });
});
