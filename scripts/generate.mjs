#!/usr/bin/env node
// Regenerates every file derived from the contract in spec/, or, with --check, verifies that the committed
// copies are exactly what the generators produce (the drift check CI runs). The generators, one per output,
// are listed in scripts/generators.mjs; ./generate-run.mjs runs them, each once what it reads is ready, and
// skips those whose output is cached for the same inputs (./generate-cache.mjs; --no-cache runs them all).
//
//   pnpm generate           rewrite the generated files
//   pnpm drift              exit 1 and list, per generator, the files that differ
//
// Both run Node with --no-opt (package.json): a run is about two seconds of code that mostly runs once, and
// V8's optimizing compiler spent more CPU compiling it, on the same two cores, than the optimized code gave
// back. Cold runs (`--no-cache`), 8 alternated pairs on a 2-core machine: 2.18 s -> 1.79 s (medians), CPU
// 3.3 s -> 2.3 s. `pnpm dev`, which runs the generators again on every save, keeps the default.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { produce, stale, write } from "./generate-run.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");
const cache = !process.argv.includes("--no-cache");

function report(produced) {
  const drifted = produced
    .map(({ generator, files }) => ({ name: generator.name, paths: stale(root, files) }))
    .filter(({ paths }) => paths.length > 0);
  if (drifted.length > 0) {
    console.error("These generated files differ from what spec/ produces:");
    for (const { name, paths } of drifted) console.error(`  ${name}: ${paths.join(", ")}`);
    console.error("Run `pnpm generate` and commit the result.");
    process.exitCode = 1;
  } else {
    const count = produced.reduce((sum, { files }) => sum + Object.keys(files).length, 0);
    console.log(`All ${count} generated files match what their generators produce.`);
  }
}

const work = mkdtempSync(join(tmpdir(), "workapi-generate-"));
try {
  const produced = await produce(root, work, { cache });
  if (check) report(produced);
  else for (const path of write(root, produced)) console.log(`wrote ${path}`);
  if (process.env.WORKAPI_GENERATE_TIMES) {
    for (const { generator, cached: hit, ms } of produced)
      console.log(`  ${generator.name}: ${hit ? "cached" : `${Math.round(ms)} ms`}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
