#!/usr/bin/env node
// CommonJS declarations: dist/*.d.cts, the same declarations as src/*.d.ts with relative imports pointing at
// their .cjs twins. A CommonJS TypeScript file (`.cts`, or `module: node16` without "type": "module") that
// imports @workapi/types then gets declarations of its own format, instead of an ES module it may only
// import with a `resolution-mode` attribute (TS1541).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const src = new URL("../src/", import.meta.url);
const dist = new URL("../dist/", import.meta.url);
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);
const files = readdirSync(src).filter((name) => name.endsWith(".d.ts"));
for (const name of files) {
  const source = readFileSync(new URL(name, src), "utf8");
  const cjs = source.replace(/(from\s+["']\.\/[^"']+)\.js(["'])/g, "$1.cjs$2");
  if (/from\s+["']\.\/[^"']+\.js["']/.test(cjs))
    throw new Error(`${name}: a relative import was not rewritten`);
  writeFileSync(new URL(name.replace(/\.d\.ts$/, ".d.cts"), dist), cjs);
}
process.stdout.write(`wrote ${files.length} CommonJS declaration files to dist/\n`);
