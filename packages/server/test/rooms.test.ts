// The rooms of src/ keep to the house plan (the repository's ARCHITECTURE.md, "Which way imports point"):
// the store stands on nothing above it, the write thread's code has a room of its own and "worker" names only
// the processes of `serve --workers N` (./src/cluster.ts), and no value is forced into another type on its way
// between rooms, and no module reaches itself again through its imports (static, dynamic or type-only).
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

/**
 * Every relative module `file` names: `import ... from`, `export ... from`, a bare `import "..."` and a dynamic
 * `import("...")`, type-only ones included (a circle of types is a knot all the same), as paths from src/.
 */
function everyImport(file: string): string[] {
  const text = readFileSync(join(src, file), "utf8");
  const named = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;
  return [...text.matchAll(named)].map((match) =>
    relative(src, join(src, file, "..", (match[1] as string).replace(/\.js$/, ".ts"))),
  );
}

/** Each circle of the import graph of src/, as `a -> b -> ... -> a` (one per edge closing it). */
function circles(): string[] {
  const graph = new Map(sources().map((file) => [file, everyImport(file)]));
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const found: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === "open")
        found.push([...path.slice(path.indexOf(target)), target].join(" -> "));
      else if (!state.has(target) && graph.has(target)) visit(target);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

describe("the rooms of the server", () => {
  it("import one another without a circle, counting dynamic and type-only imports", () => {
    expect(circles()).toEqual([]);
  });

  it("find a circle when there is one (the check's own check)", () => {
    // Each import is resolved to a file of src/: were one missed (a .js name not mapped to its .ts), the
    // circles above would go unseen. The seed calls the operations, so it must be among their imports.
    expect(everyImport("seed/calls.ts")).toContain("operations/index.ts");
    expect(everyImport("store/sandboxes.ts")).toContain("store/types.ts");
  });

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
