// The installed client and types used as a user would: scripts in ESM and CommonJS, TypeScript in node16 (ESM
// and .cts, compiled and run) and bundler resolution (type-checked), each calling the installed server; the
// first example of the spec, docs and types READMEs as written; and the browser check.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { browserCheck } from "./browser-check.mjs";
import { mustRun } from "./processes.mjs";
import { writeFiles } from "./projects.mjs";
import { fail, log, root, summary } from "./state.mjs";

const clientScript = (
  form,
) => `${form === "esm" ? 'import { createClient } from "@workapi/client";' : 'const { createClient } = require("@workapi/client");'}

async function main() {
  const api = createClient({ baseUrl: process.env.WORKAPI_URL, token: process.env.WORKAPI_TOKEN });
  const name = "${form}-" + Date.now();
  const created = await api.tags.create({ name }, { throwOnError: true });
  const { data } = await api.tags.list({ limit: 100 }, { throwOnError: true });
  if (!data.tags.some((tag) => tag.id === created.data.tag.id)) throw new Error("the new tag is not listed");
  console.log("${form}: created and listed " + created.data.tag.id);
}
main().catch((error) => { console.error(error); process.exit(1); });
`;

// TypeScript that must compile against the installed declarations: a wrong call must be an error (if the
// types were lost, the @ts-expect-error below would itself be an error).
const typedScript = (form) => `import { createClient, ApiError } from "@workapi/client";
import type { Tag, SuccessBody } from "@workapi/types";

declare const process: { env: Record<string, string | undefined>; exit(code: number): never };

async function main(): Promise<void> {
  const api = createClient({ baseUrl: process.env.WORKAPI_URL ?? "", token: process.env.WORKAPI_TOKEN ?? "" });
  const created = await api.tags.create({ name: "${form}-" + Date.now() }, { throwOnError: true });
  const tag: Tag = created.data.tag;
  const listed: SuccessBody<"tags-list-post"> = (await api.tags.list({ limit: 100 }, { throwOnError: true })).data;
  // @ts-expect-error: limit is a number
  void api.tags.list({ limit: "ten" });
  if (!listed.tags.some((t) => t.id === tag.id)) throw new Error("the new tag is not listed");
  if (!(ApiError.prototype instanceof Error)) throw new Error("ApiError is no Error");
  console.log("${form}: created and listed " + tag.id);
}
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
`;

function firstCodeBlock(readme, languages) {
  const match = new RegExp("```(" + languages.join("|") + ")\\n([\\s\\S]*?)```").exec(readme);
  if (!match) fail(`no ${languages.join("/")} example in a README`);
  return match[2];
}

/** The files of the client project's checks: scripts in each module form, TypeScript projects, README examples. */
function clientProjectFiles(dir) {
  const lib = ["ES2022", "DOM", "DOM.Iterable"];
  return {
    "esm.mjs": clientScript("esm"),
    "cjs.cjs": clientScript("cjs"),
    "node16/package.json": JSON.stringify({ type: "module" }),
    "node16/tsconfig.json": JSON.stringify({
      compilerOptions: {
        module: "node16",
        moduleResolution: "node16",
        target: "ES2022",
        lib,
        types: [],
        strict: true,
        skipLibCheck: false,
        outDir: "dist",
      },
      include: ["*.mts", "*.cts"],
    }),
    "node16/esm.mts": typedScript("node16-esm"),
    "node16/cjs.cts": typedScript("node16-cts"),
    "bundler/tsconfig.json": JSON.stringify({
      compilerOptions: {
        module: "esnext",
        moduleResolution: "bundler",
        target: "ES2022",
        lib,
        types: [],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      },
      include: ["*.ts"],
    }),
    "bundler/index.ts": typedScript("bundler"),
    "bundler/readme-types.ts": `declare const console: { log(...values: unknown[]): void };\n${firstCodeBlock(readFileSync(join(dir, "node_modules/@workapi/types/README.md"), "utf8"), ["ts"])}`,
    "readme-spec.mjs": firstCodeBlock(
      readFileSync(join(dir, "node_modules/@workapi/spec/README.md"), "utf8"),
      ["js"],
    ),
    "readme-docs.mjs": firstCodeBlock(
      readFileSync(join(dir, "node_modules/@workapi/docs/README.md"), "utf8"),
      ["js"],
    ),
  };
}

/** Runs the client project's scripts against the server, compiles and type-checks its TypeScript, and runs the READMEs' examples. */
async function runClientProject(dir, server, env) {
  const tsc = join(root, "node_modules/typescript/bin/tsc");
  const serverEnv = { ...env, WORKAPI_URL: server.url, WORKAPI_TOKEN: server.token };
  for (const file of ["esm.mjs", "cjs.cjs"])
    log((await mustRun("node", [file], { cwd: dir, env: serverEnv })).trim());
  await mustRun("node", [tsc, "-p", "node16"], { cwd: dir, env });
  for (const file of ["node16/dist/esm.mjs", "node16/dist/cjs.cjs"])
    log((await mustRun("node", [file], { cwd: dir, env: serverEnv })).trim());
  await mustRun("node", [tsc, "-p", "bundler"], { cwd: dir, env });
  summary.push(
    "client + types: .mjs and .cjs ran against the server; node16 .mts and .cts compiled and ran; bundler type-checked",
  );
  for (const file of ["readme-spec.mjs", "readme-docs.mjs"]) await mustRun("node", [file], { cwd: dir, env });
  summary.push("first README examples: @workapi/spec and @workapi/docs ran, @workapi/types type-checked");
}

/**
 * The installed client and types, from every module form and in a browser, against the installed server, and
 * the first example of the spec, docs and types READMEs.
 */
export async function clientChecks(dir, server, env, pageOrigin) {
  writeFiles(dir, clientProjectFiles(dir));
  await runClientProject(dir, server, env);
  await browserCheck(dir, server, pageOrigin);
}
