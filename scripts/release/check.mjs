#!/usr/bin/env node
// Checks what `changeset publish` is about to ship, on the packed tarballs rather than the source folders:
//   - the contract marks no operation x-unreleased (./unreleased.mjs: such an operation only answers its
//     example in the reference server), checked first, when the spec package is among those released;
//   - no package's version is already on the registry (versions are never published twice);
//   - every file that package.json names (exports, main, module, types, bin) is in the tarball, as are the
//     README and LICENSE, and no dependency still says `workspace:`;
//   - every source map either carries its sources or points at files the tarball holds;
//   - publint (strict) and Are the Types Wrong pass on the tarball.
// Usage: node scripts/release/check.mjs [--no-registry | --pending] [package-dir...]   (default: every published package)
import { execFileSync, spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { unreleasedProblem } from "./unreleased.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const checkRegistry = !args.includes("--no-registry");
const given = args.filter((arg) => !arg.startsWith("--"));

/** The workspace packages that are published: every packages/* without `"private": true`. */
export function publishedPackages() {
  return readdirSync(join(root, "packages"))
    .map((name) => join(root, "packages", name))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .filter((dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private !== true)
    .sort();
}

/** Every relative path a package.json entry names: exports (any depth of conditions), main, module, types, bin. */
function namedFiles(pkg) {
  const named = [];
  const walk = (node, where) => {
    if (typeof node === "string") named.push({ where, file: node });
    else if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${where}[${i}]`);
    } else if (node && typeof node === "object")
      for (const [key, value] of Object.entries(node)) walk(value, `${where}[${JSON.stringify(key)}]`);
  };
  walk(pkg.exports, "exports");
  for (const field of ["main", "module", "types", "typings"]) walk(pkg[field], field);
  walk(typeof pkg.bin === "string" ? { [pkg.name]: pkg.bin } : pkg.bin, "bin");
  // Subpath patterns (`./*`) name sets of files, not files; publint checks those.
  return named.filter(({ file }) => !file.includes("*"));
}

function registryVersion(name, version) {
  const result = spawnSync("npm", ["view", `${name}@${version}`, "version", "--json"], { encoding: "utf8" });
  if (result.status === 0) return result.stdout.trim() ? JSON.parse(result.stdout) : undefined;
  if (/E404|is not in this registry|No match found/.test(result.stderr)) return undefined;
  throw new Error(`npm view ${name}@${version} failed:\n${result.stderr}`);
}

async function checkPackage(dir, work) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const id = `${pkg.name}@${pkg.version}`;
  const problems = [];

  // pnpm pack runs prepack (the build) and writes the tarball that pnpm publish would send.
  const out = join(work, pkg.name.replace(/[@/]/g, "_"));
  mkdirSync(out, { recursive: true });
  const packing = spawnSync("pnpm", ["pack", "--pack-destination", out], { cwd: dir, encoding: "utf8" });
  if (packing.status !== 0) {
    return { id, files: 0, problems: [`pnpm pack failed:\n${packing.stdout}${packing.stderr}`] };
  }
  const tarball = join(
    out,
    readdirSync(out).find((name) => name.endsWith(".tgz")),
  );
  execFileSync("tar", ["-xzf", tarball, "-C", out]);
  const unpacked = join(out, "package");
  const files = new Set(
    execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((entry) => entry.replace(/^package\//, "")),
  );
  const packed = JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8"));

  for (const { where, file } of namedFiles(packed)) {
    const path = posix.normalize(file).replace(/^\.\//, "");
    if (!files.has(path)) problems.push(`package.json ${where} names ${file}, which the tarball lacks`);
  }
  for (const required of ["package.json", "README.md", "LICENSE"])
    if (!files.has(required)) problems.push(`the tarball lacks ${required}`);
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"])
    for (const [dep, range] of Object.entries(packed[field] ?? {}))
      if (String(range).startsWith("workspace:")) problems.push(`${field}.${dep} is still ${range}`);
  for (const file of files) {
    if (!file.endsWith(".map")) continue;
    const map = JSON.parse(readFileSync(join(unpacked, file), "utf8"));
    (map.sources ?? []).forEach((source, i) => {
      const target = posix.normalize(posix.join(posix.dirname(file), map.sourceRoot ?? "", source));
      if (map.sourcesContent?.[i] == null && !files.has(target))
        problems.push(
          `${file} points at ${target}, which the tarball lacks (and the map has no sourcesContent)`,
        );
    });
  }

  const bytes = readFileSync(tarball);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const lint = await publint({ pack: { tarball: buffer }, strict: true });
  for (const message of lint.messages)
    problems.push(`publint ${message.type}: ${formatMessage(message, packed) ?? message.code}`);

  // A package without CommonJS entry points (spec, docs, server) is checked as ESM-only.
  const hasRequire = JSON.stringify(packed.exports ?? {}).includes('"require"') || packed.main !== undefined;
  // Subpaths that export assets (openapi.yaml, index.html) are files to read, not modules to resolve types for.
  const assets = Object.entries(typeof packed.exports === "object" ? packed.exports : {})
    .filter(([, target]) => typeof target === "string" && !/\.(c|m)?js$|\.json$/.test(target))
    .map(([subpath]) => subpath);
  const attw = spawnSync(
    join(root, "node_modules/.bin/attw"),
    [
      tarball,
      "--format",
      "ascii",
      "--no-emoji",
      "--no-color",
      ...(hasRequire ? [] : ["--profile", "esm-only"]),
      ...(assets.length > 0 ? ["--exclude-entrypoints", ...assets] : []),
    ],
    { encoding: "utf8" },
  );
  if (attw.status !== 0) problems.push(`Are the Types Wrong:\n${attw.stdout}${attw.stderr}`);

  return { id, tarball, files: files.size, problems };
}

/**
 * `--pending`: whether any package's version is not on the registry yet, as `pending=true|false` on stdout
 * and in $GITHUB_OUTPUT. The release workflow publishes only then, so pushes to main without a version
 * change do not try (and fail) to publish the same versions again.
 */
function pending(dirs) {
  const unpublished = dirs
    .map((dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")))
    .filter(({ name, version }) => registryVersion(name, version) === undefined)
    .map(({ name, version }) => `${name}@${version}`);
  const line = `pending=${unpublished.length > 0}`;
  process.stdout.write(`${line}${unpublished.length > 0 ? ` (${unpublished.join(", ")})` : ""}\n`);
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `${line}\n`);
}

async function main() {
  const dirs = given.length > 0 ? given.map((dir) => resolve(dir)) : publishedPackages();
  if (args.includes("--pending")) return pending(dirs);
  const unreleased = unreleasedProblem(dirs);
  if (unreleased) {
    process.stderr.write(`release check: ${unreleased}\n`);
    process.exit(1);
  }
  const failures = [];
  if (checkRegistry) {
    const registry = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
    for (const dir of dirs) {
      const { name, version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      if (registryVersion(name, version) !== undefined)
        failures.push(
          `${name}@${version} is already published on ${registry}; a version is never published twice. ` +
            "Add a changeset (pnpm changeset) and run pnpm version-packages first.",
        );
    }
    if (failures.length > 0) {
      for (const failure of failures) process.stderr.write(`release check: ${failure}\n`);
      process.exit(1);
    }
  }
  const work = mkdtempSync(join(tmpdir(), "workapi-release-check-"));
  try {
    for (const dir of dirs) {
      const result = await checkPackage(dir, work);
      if (result.problems.length === 0) {
        process.stdout.write(`release check: ${result.id} ok (${result.files} files)\n`);
      } else {
        for (const problem of result.problems) failures.push(`${result.id}: ${problem}`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    for (const failure of failures) process.stderr.write(`release check: ${failure}\n`);
    process.exit(1);
  }
}

await main();
