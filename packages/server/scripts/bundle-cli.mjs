#!/usr/bin/env node
// Bundles the `workapi-server` command (src/cli.ts) into dist/cli.js, over the file tsc wrote there. Node
// resolves and compiles every file of an import graph one by one: Kysely alone is some 400 ESM files and took
// 240 ms of a 900 ms start, Fastify 110 ms more. One bundled file starts in half the time. The library entry
// (dist/index.js, from tsc) is left as it is; the command and the library run the same source. tsc's own
// dist/cli.js is kept as dist/cli.modules.js: `pnpm bench --profile` runs it, so that a CPU profile still
// says which package each function comes from.
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// Left to be installed beside the bundle:
const external = [
  // a native addon;
  "better-sqlite3",
  // loaded only when PostgreSQL or Redis is configured, so a start without them does not pay for them;
  "pg",
  "ioredis",
  // packages read files of their own at run time (the contract, the docs page, the rate limiter's stores,
  // which src/http/rate-limit.ts requires by path); @workapi/spec's validators read none, and are bundled
  // (bundledValidators below).
  "@workapi/spec",
  "@workapi/docs",
  "@fastify/rate-limit/store/*",
];

// @workapi/spec/validators, and Ajv with it, go into the bundle: Ajv is some 90 CommonJS files, which Node
// resolved one by one on the first validated request (some 50 ms on a busy machine) when it was left beside it.
// An external package's subpaths are external too, so the subpath is resolved here, to its file.
const bundledValidators = {
  name: "bundled-validators",
  setup(build) {
    build.onResolve({ filter: /^@workapi\/spec\/validators$/ }, () => ({
      path: fileURLToPath(import.meta.resolve("@workapi/spec/validators")),
    }));
  },
};

const modules = join(root, "dist/cli.modules.js");
writeFileSync(
  modules,
  readFileSync(join(root, "dist/cli.js"), "utf8").replace(
    "sourceMappingURL=cli.js.map",
    "sourceMappingURL=cli.modules.js.map",
  ),
);
await build({
  // The command, and the thread it runs writes on (src/write-thread/), each one file.
  entryPoints: {
    cli: join(root, "src/cli.ts"),
    "write-thread/thread": join(root, "src/write-thread/thread.ts"),
  },
  outdir: join(root, "dist"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external,
  plugins: [bundledValidators],
  // CommonJS dependencies inside an ES module bundle call require(): give them one.
  banner: {
    js: "import { createRequire as createRequireOfBundle } from 'node:module';\nconst require = createRequireOfBundle(import.meta.url);",
  },
  legalComments: "none",
  logLevel: "warning",
});
// tsc's map describes the file now named cli.modules.js.
renameSync(join(root, "dist/cli.js.map"), join(root, "dist/cli.modules.js.map"));
// tsc's map of the write thread describes a file the bundle replaced.
rmSync(join(root, "dist/write-thread/thread.js.map"), { force: true });
