// Runs the generators of scripts/generators.mjs (a generator may also have `prepare()`, called when one it reads
// is not cached, to get ready while that one runs): each as soon as the generators it reads have answered (the
// types and the docs page, both reading the bundle, run side by side: the page's script is built by esbuild in a
// process of its own meanwhile), each skipped when its cache entry still holds (./generate-cache.mjs). Used by
// scripts/generate.mjs (`pnpm generate`, `pnpm drift`) and by scripts/dev.mjs (`pnpm dev`), which keeps the
// generators' modules loaded between runs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cached, cacheKey, keep } from "./generate-cache.mjs";
import { generators as allGenerators } from "./generators.mjs";

/** Checks that `generator` answered exactly the files it declares. */
function checkOutputs(generator, files) {
  const paths = Object.keys(files);
  if (paths.length !== generator.outputs.length || paths.some((path) => !generator.outputs.includes(path))) {
    throw new Error(
      `generator ${generator.name} produced ${paths.join(", ")}; it declares ${generator.outputs.join(", ")}`,
    );
  }
}

/**
 * Runs `generators` (every one by default) in `root`, `work` being a temporary folder; answers
 * [{ generator, files, cached, ms }] in their order, `files` being { path: contents }. `cache: false` runs
 * every generator.
 *
 * A generator may answer `files` as a function (answering them or a promise of them): it is called once the
 * generators reading its value have started (the bundle's YAML, which none of them reads, is written out while they run on their threads).
 * `onProduced(entry)` is called as each generator's entry is made (before the others finish: `pnpm dev` writes
 * the docs page and reloads it then).
 */
export async function produce(
  root,
  work,
  { generators = allGenerators, cache = true, onProduced = () => {} } = {},
) {
  /** Each generator's value (what its readers await) and its whole result, by name. */
  const runs = new Map();
  for (const generator of generators) {
    for (const name of generator.inputs) {
      if (!runs.has(name))
        throw new Error(`generator ${generator.name} reads ${name}, which does not run before it`);
    }
    let answer;
    const value = new Promise((resolve, reject) => {
      answer = { resolve, reject };
    });
    // Awaited by the readers, if any; its failure is also the result's, which produce answers.
    value.catch(() => {});
    const run = async () => {
      const inputs = {};
      for (const name of generator.inputs) inputs[name] = await runs.get(name).value;
      const started = performance.now();
      const key = cache ? cacheKey(root, generator, inputs) : undefined;
      const kept = cached(root, generator, key);
      if (kept) {
        answer.resolve(kept.value);
        const entry = { generator, ...kept, cached: true, ms: performance.now() - started };
        onProduced(entry);
        return entry;
      }
      // Those reading this one will most likely run too: they may get ready meanwhile (load what they use).
      for (const reader of generators) if (reader.inputs.includes(generator.name)) reader.prepare?.();
      const result = await generator.generate({ root, work, inputs });
      answer.resolve(result.value);
      let files = result.files;
      if (typeof files === "function") {
        // After the readers' first steps (they run on the resolved value's continuations, then setImmediate).
        await new Promise((resolve) => setImmediate(resolve));
        files = await files();
      }
      checkOutputs(generator, files);
      const entry = { generator, files, value: result.value, cached: false, ms: performance.now() - started };
      onProduced(entry);
      keep(root, generator, key, { files, value: result.value });
      return entry;
    };
    const result = run();
    result.catch((error) => answer.reject(error));
    runs.set(generator.name, { value, result });
  }
  return Promise.all(generators.map((generator) => runs.get(generator.name).result));
}

/** The paths among `files` whose copy in `root` differs from the contents given. */
export function stale(root, files) {
  return Object.entries(files)
    .filter(([path, contents]) => {
      const target = join(root, path);
      return (existsSync(target) ? readFileSync(target, "utf8") : null) !== contents;
    })
    .map(([path]) => path);
}

/** Writes the files of `produced` that differ from their copy in `root` (only those); answers their paths. */
export function write(root, produced) {
  const written = [];
  for (const { files } of produced) {
    for (const path of stale(root, files)) {
      const target = join(root, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, files[path]);
      written.push(path);
    }
  }
  return written;
}
