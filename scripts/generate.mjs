#!/usr/bin/env node
// Regenerates every file derived from the contract in spec/, or, with --check, verifies that the committed
// copies are exactly what the generators produce (the drift check CI runs). The generators, one per output,
// are listed in scripts/generators.mjs; this runs them in that order.
//
//   pnpm generate           rewrite the generated files
//   pnpm drift              exit 1 and list, per generator, the files that differ
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generators } from "./generators.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");

/** The values of the generators `generator` names as its inputs; throws unless each ran before it. */
function inputsOf(generator, values) {
  const inputs = {};
  for (const name of generator.inputs) {
    if (!values.has(name))
      throw new Error(`generator ${generator.name} reads ${name}, which does not run before it`);
    inputs[name] = values.get(name);
  }
  return inputs;
}

/** Runs every generator in order; answers [{ generator, files }], `files` being { path: contents }. */
async function produce(work) {
  const values = new Map();
  const produced = [];
  for (const generator of generators) {
    const { files, value } = await generator.generate({ root, work, inputs: inputsOf(generator, values) });
    const paths = Object.keys(files);
    if (
      paths.length !== generator.outputs.length ||
      paths.some((path) => !generator.outputs.includes(path))
    ) {
      throw new Error(
        `generator ${generator.name} produced ${paths.join(", ")}; it declares ${generator.outputs.join(", ")}`,
      );
    }
    values.set(generator.name, value);
    produced.push({ generator, files });
  }
  return produced;
}

/** The paths among `files` whose committed copy differs from the contents given. */
function stale(files) {
  return Object.entries(files)
    .filter(([path, contents]) => {
      const target = join(root, path);
      return (existsSync(target) ? readFileSync(target, "utf8") : null) !== contents;
    })
    .map(([path]) => path);
}

function write(produced) {
  for (const { files } of produced) {
    for (const path of stale(files)) {
      const target = join(root, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, files[path]);
      console.log(`wrote ${path}`);
    }
  }
}

function report(produced) {
  const drifted = produced
    .map(({ generator, files }) => ({ name: generator.name, paths: stale(files) }))
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
  const produced = await produce(work);
  if (check) report(produced);
  else write(produced);
} finally {
  rmSync(work, { recursive: true, force: true });
}
