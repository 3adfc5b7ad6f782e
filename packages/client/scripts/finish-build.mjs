#!/usr/bin/env node
// After tsup: @workapi/types is an ES module of types only, so the CommonJS declarations (dist/*.d.cts: each
// entry point's and the chunks they share) must import it with `resolution-mode: import`, or TypeScript
// refuses the import (TS1479) in CommonJS projects. tsup's declaration bundler drops import attributes, so
// they are added here.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

const dist = new URL("../dist/", import.meta.url);
const pattern = /^(import|export) (type )?(\{[^}]*\}) from '@workapi\/types';$/gm;
let rewritten = 0;
for (const name of readdirSync(dist).filter((file) => file.endsWith(".d.cts"))) {
  const file = new URL(name, dist);
  const source = readFileSync(file, "utf8");
  const patched = source.replace(
    pattern,
    (_, keyword, _type, names) =>
      `${keyword} type ${names} from '@workapi/types' with { 'resolution-mode': 'import' };`,
  );
  if (/from '@workapi\/types';$/m.test(patched)) {
    throw new Error(`dist/${name}: could not rewrite every import of @workapi/types`);
  }
  if (patched !== source) rewritten++;
  writeFileSync(file, patched);
}
if (rewritten === 0) throw new Error("dist/*.d.cts: no import of @workapi/types found to rewrite");
