// The generators' cache: a generator that declares `reads` (the files and folders, relative to the repository,
// that its output depends on besides its inputs: its own code included) is run only when something it depends
// on changed. Its key hashes its name, the values of its inputs, the contents of what it reads and
// pnpm-lock.yaml (the versions of the libraries it runs); its last output is kept under
// node_modules/.cache/workapi-generate/, one entry per generator. Sound as long as `reads` is complete; the
// drift check in CI starts with no cache, so an incomplete `reads` shows there.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const CACHE_DIR = join("node_modules", ".cache", "workapi-generate");

/** Adds to `hash` the path and contents of `path` (relative to `root`), every file of a folder in name order. */
function hashPath(hash, root, path) {
  const full = join(root, path);
  if (!existsSync(full)) {
    hash.update(`\0absent ${path}`);
    return;
  }
  if (statSync(full).isDirectory()) {
    for (const entry of readdirSync(full).sort()) hashPath(hash, root, join(path, entry));
    return;
  }
  hash.update(`\0file ${path}\0`);
  hash.update(readFileSync(full));
}

/** Each input value's JSON, made once: the bundle (some megabytes) is read by three generators. */
const texts = new WeakMap();
function textOf(value) {
  if (value === null || typeof value !== "object") return String(JSON.stringify(value));
  if (!texts.has(value)) texts.set(value, JSON.stringify(value));
  return texts.get(value);
}

/** The cache key of `generator` run on `inputs`, or undefined when it declares no `reads` (never cached). */
export function cacheKey(root, generator, inputs) {
  if (!generator.reads) return undefined;
  const hash = createHash("sha256");
  hash.update(generator.name);
  for (const [name, value] of Object.entries(inputs)) hash.update(`\0${name}\0${textOf(value)}`);
  for (const path of [...generator.reads, "pnpm-lock.yaml"]) hashPath(hash, root, path);
  return hash.digest("hex");
}

const entryFile = (root, generator) =>
  join(root, CACHE_DIR, `${generator.name.replace(/[^\w-]/g, "_")}.json`);

/** The kept { files, value } of `generator` for `key`, or undefined. */
export function cached(root, generator, key) {
  if (key === undefined) return undefined;
  try {
    const entry = JSON.parse(readFileSync(entryFile(root, generator), "utf8"));
    return entry.key === key ? entry.result : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `result` ({ files, value }) of `generator` under `key`. */
export function keep(root, generator, key, result) {
  if (key === undefined) return;
  mkdirSync(join(root, CACHE_DIR), { recursive: true });
  writeFileSync(entryFile(root, generator), JSON.stringify({ key, result }));
}
