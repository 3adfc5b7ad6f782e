#!/usr/bin/env node
// After tsup: @workapi/types is an ES module of types only, so the CommonJS declarations (dist/index.d.cts)
// must import it with `resolution-mode: import`, or TypeScript refuses the import (TS1479) in CommonJS
// projects. tsup's declaration bundler drops import attributes, so they are added here.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../dist/index.d.cts", import.meta.url);
const source = readFileSync(file, "utf8");
const pattern = /^(import|export) (\{[^}]*\}) from '@workapi\/types';$/gm;
const patched = source.replace(
  pattern,
  (_, keyword, names) =>
    `${keyword} type ${names} from '@workapi/types' with { 'resolution-mode': 'import' };`,
);
if (!/@workapi\/types/.test(source) || /from '@workapi\/types';$/m.test(patched)) {
  throw new Error("dist/index.d.cts: could not find or rewrite every import of @workapi/types");
}
writeFileSync(file, patched);
