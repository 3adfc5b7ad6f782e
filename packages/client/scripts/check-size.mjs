#!/usr/bin/env node
// Size budget: the built ESM bundle, minified and gzipped, with openapi-fetch left out (it is the one runtime
// dependency, counted apart). Fails when the client's own code grows past the budget. Run after `tsup`.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

// 3.2 kB, for what outgrew the old 3 kB: telling callers of deprecated operations (onDeprecated,
// src/deprecation.ts) costs some 120 bytes, the table of error types generated from the contract
// (src/generated/errors.ts) 16 more for the contract's 415 type, and the five sandbox operations' names in the
// operations' tree some 30 more (createSandbox itself is the separate entry point @workapi/client/sandbox). The operations come from the
// generated tree of their name segments (each shared segment written once), which keeps the table of names,
// the largest part of the client, small.
const BUDGET = 3.2 * 1024;
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(root, "dist", "index.js");
if (!existsSync(entry)) {
  console.error("dist/index.js is missing: run `pnpm --filter @workapi/client build` first");
  process.exit(1);
}

async function gzipped(stdin, external) {
  const { outputFiles } = await build({
    stdin: { contents: stdin, resolveDir: root, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    external,
    write: false,
    logLevel: "silent",
  });
  const code = outputFiles[0].contents;
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

// Everything the package exports, so that nothing is shaken away from the measurement.
const client = await gzipped(`export * from ${JSON.stringify(entry)};`, ["openapi-fetch"]);
const withFetch = await gzipped(`export * from ${JSON.stringify(entry)};`, []);
const kb = (bytes) => `${(bytes / 1024).toFixed(2)} kB`;
console.log(
  `@workapi/client: ${kb(client.gzip)} min+gzip (${kb(client.min)} min) without openapi-fetch; ` +
    `${kb(withFetch.gzip)} with it. Budget: ${kb(BUDGET)} on top of openapi-fetch.`,
);
if (client.gzip > BUDGET) {
  console.error(`Over budget by ${client.gzip - BUDGET} bytes.`);
  process.exitCode = 1;
}
