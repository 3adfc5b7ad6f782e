// The samples the docs show for every operation (x-codeSamples in the bundled contract), a curl command and a
// TypeScript program, run as shown, in the contract's order, against a freshly seeded server (one per
// language: see `runs`), and succeed: exit 0, nothing on stderr, and (curl) the operation's documented success
// status. So the ids in the examples are ones the seed guarantees, and a sample that uses its record up (a
// delete, a transition, a file it attaches) names one no later sample needs: nothing is made for a sample here.
// - curl: the text run is the text shown, with only the shell variables the docs page documents set:
//   $WORKAPI_URL, $WORKAPI_TOKEN, $FILE and the record ids ($ISSUE_ID, $TAG_ID...), each to the example id it
//   stands for (@workapi/spec's scripts/code-samples.mjs says which). curl's own settings (silent, print the
//   status) come from a curlrc in $CURL_HOME, so they are not part of the sample.
// - TypeScript: every sample is compiled in one esbuild call and run with node, importing the built client
//   (packages/client/dist, as users get it: build it first) and reading $WORKAPI_URL and $WORKAPI_TOKEN. A
//   sample reports a failed call on stderr.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { HTTP_METHODS, loadSpec } from "@workapi/spec";
import { sampleIds } from "@workapi/spec/code-samples";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../src/seed/index.js";
import { databases, startTestServer, type TestServer } from "./harness.js";

const run = promisify(execFile);
const clientPackage = fileURLToPath(new URL("../../client/", import.meta.url));

interface Sample {
  lang: string;
  label: string;
  source: string;
}
interface Case {
  operationId: string;
  title: string;
  curl: string;
  typescript: string;
  /** The operation's documented success status. */
  status: number;
  /** The record ids the curl sample reads, each set to the example id it stands for. */
  ids: Record<string, string>;
}

// biome-ignore lint/suspicious/noExplicitAny: the operations are read field by field
const spec: any = loadSpec();
const idsOf = new Map(sampleIds(spec).map((entry) => [entry.operationId, entry.ids]));
const cases: Case[] = [];
for (const [path, item] of Object.entries(spec.paths) as Array<[string, Record<string, unknown>]>) {
  for (const method of HTTP_METHODS) {
    const operation = item[method] as
      | { operationId: string; responses: object; "x-codeSamples"?: Sample[] }
      | undefined;
    if (!operation) continue;
    const samples = operation["x-codeSamples"] ?? [];
    const success = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status));
    cases.push({
      operationId: operation.operationId,
      title: `${method.toUpperCase()} ${path} (${operation.operationId})`,
      curl: samples.find((sample) => sample.label === "curl")?.source ?? "",
      typescript: samples.find((sample) => sample.lang === "TypeScript")?.source ?? "",
      status: Number(success[0]),
      ids: idsOf.get(operation.operationId) ?? {},
    });
  }
}

describe("the samples of the docs", () => {
  it("are there for every operation, each with one documented success status", () => {
    expect(cases.length).toBeGreaterThan(20);
    expect(cases.filter((c) => !c.curl.startsWith("curl ")).map((c) => c.title)).toEqual([]);
    expect(cases.filter((c) => !c.typescript.includes("@workapi/client")).map((c) => c.title)).toEqual([]);
    expect(cases.filter((c) => !(c.status >= 200 && c.status < 300)).map((c) => c.title)).toEqual([]);
  });
});

/** Compiles every TypeScript sample in one esbuild call to `<operationId>.mjs` in `dir`. */
async function compileSamples(dir: string): Promise<void> {
  const sources = join(dir, "src");
  mkdirSync(sources);
  for (const c of cases) writeFileSync(join(sources, `${c.operationId}.ts`), c.typescript);
  await build({
    entryPoints: cases.map((c) => join(sources, `${c.operationId}.ts`)),
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "silent",
  });
  // `@workapi/client` resolves to the built package, as an installed one would.
  mkdirSync(join(dir, "node_modules", "@workapi"), { recursive: true });
  symlinkSync(clientPackage, join(dir, "node_modules", "@workapi", "client"), "dir");
}

/** A scratch directory holding what the samples read: a curlrc, the file they upload, the compiled samples. */
async function sampleHome(): Promise<string> {
  // Without curl or the built client the samples cannot be checked, and that is a failure, not a skip.
  await run("curl", ["--version"]).catch(() => {
    throw new Error("the docs' curl samples need curl on the PATH (Debian: apt-get install curl)");
  });
  if (!existsSync(join(clientPackage, "dist", "index.js")))
    throw new Error(
      "the docs' TypeScript samples need the built client: pnpm --filter @workapi/client build",
    );
  const home = mkdtempSync(join(tmpdir(), "workapi-samples-"));
  writeFileSync(join(home, ".curlrc"), 'silent\nshow-error\nwrite-out = "\\n%{http_code}"\n');
  // The files the upload samples send: $FILE for curl, the example's file name for TypeScript.
  writeFileSync(join(home, "notes.txt"), "Notes of the docs sample run.\n");
  for (const c of cases) {
    for (const [, name] of c.typescript.matchAll(/openAsBlob\("([^"/]+)"\)/g))
      writeFileSync(join(home, name as string), "A file of the docs sample run.\n");
  }
  await compileSamples(home);
  return home;
}

/** Runs a curl sample as shown, its variables set; expects the documented status and nothing on stderr. */
async function runCurl(sample: Case, env: Record<string, string>): Promise<void> {
  const variables = { ...env, CURL_HOME: env.HOME as string, FILE: join(env.HOME as string, "notes.txt") };
  const { stdout, stderr } = await run("bash", ["-c", sample.curl], {
    env: { ...variables, ...sample.ids },
    cwd: env.HOME,
  });
  const status = Number(stdout.slice(stdout.lastIndexOf("\n") + 1));
  const body = stdout.slice(0, stdout.lastIndexOf("\n"));
  expect(`${status} ${stderr}${body}`.slice(0, 600)).toBe(`${sample.status} ${body}`.slice(0, 600));
}

/** Runs a compiled TypeScript sample with node; a failed call shows on stderr, a crash in the exit code. */
async function runTypeScript(sample: Case, env: Record<string, string>): Promise<void> {
  const { stderr } = await run("node", [`${sample.operationId}.mjs`], { env, cwd: env.HOME });
  expect(stderr).toBe("");
}

// Each language runs on a server of its own: a create runs once per language, and names are unique (a tag,
// a stage), so the second run of a create on the same server would be refused as a conflict.
const runs = databases.flatMap((database) =>
  (["curl", "TypeScript"] as const).map((language) => [language, database] as const),
);

describe.each(runs)(
  "the %s samples run, in the contract's order, against a seeded server on %s",
  (language, database) => {
    let server: TestServer;
    let home: string;

    beforeAll(async () => {
      home = await sampleHome();
      server = await startTestServer(database);
      await seed(server.store, server.org, server.admin, { works: 30 });
    }, 180_000);
    afterAll(async () => {
      await server?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    it.each(cases.map((c) => [c.title, c] as const))(
      "%s",
      async (_title, sample) => {
        const env = {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: home,
          WORKAPI_URL: server.url,
          WORKAPI_TOKEN: server.adminToken,
        };
        await (language === "curl" ? runCurl(sample, env) : runTypeScript(sample, env));
      },
      30_000,
    );
  },
);
