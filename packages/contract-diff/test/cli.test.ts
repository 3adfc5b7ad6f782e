// The command line end to end in a scratch git repository shaped like this one (a workspace whose fixed group
// publishes the bundle, .changeset/config.json): a base commit, then a breaking or an additive commit, with
// and without a pending major changeset.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSpec } from "@workapi/spec";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// biome-ignore lint/suspicious/noExplicitAny: an untyped JSON document.
type Doc = Record<string, any>;

const bin = fileURLToPath(new URL("../bin/workapi-contract-diff.js", import.meta.url));
const changesetConfig = readFileSync(new URL("../../../.changeset/config.json", import.meta.url), "utf8");
const BUNDLE = "packages/spec/openapi.json";

let repo: string;
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
};
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], {
    cwd: repo,
    encoding: "utf8",
  });
const commit = (message: string) => {
  git("add", "-A");
  git("commit", "-q", "-m", message);
};
const bundle = (): Doc => JSON.parse(readFileSync(join(repo, BUNDLE), "utf8"));
const writeBundle = (doc: Doc) => write(BUNDLE, `${JSON.stringify(doc, null, 2)}\n`);
const changeset = (name: string, bump: string) =>
  write(
    `.changeset/${name}.md`,
    `---\n"@workapi/spec": ${bump}\n"@workapi/types": ${bump}\n---\n\nA change.\n`,
  );
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: repo, encoding: "utf8" });

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "contract-diff-repo-"));
  git("init", "-q", "-b", "main");
  write("package.json", JSON.stringify({ name: "scratch", private: true }));
  write("pnpm-workspace.yaml", "packages:\n  - packages/*\n");
  write("packages/spec/package.json", JSON.stringify({ name: "@workapi/spec", version: "0.0.0" }));
  write("packages/types/package.json", JSON.stringify({ name: "@workapi/types", version: "0.0.0" }));
  write(".changeset/config.json", changesetConfig);
  write(".changeset/README.md", "Changesets live here.\n");
  changeset("earlier-minor", "minor");
  writeBundle(loadSpec());
  commit("base");
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

function removeModifiedDate() {
  const doc = bundle();
  Reflect.deleteProperty(doc.components.schemas.BaseRecord.properties, "modified_date");
  writeBundle(doc);
  commit("drop modified_date");
}

describe("--gate in a git repository", () => {
  it("fails on an error-level change with no major changeset, naming the rule and the operations", () => {
    removeModifiedDate();
    const result = cli("HEAD~1", "--gate", "--format", "markdown");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(1);
    expect(result.stdout.split("\n")[0]).toMatch(
      /^## Contract review: \d+ errors, 0 warnings, 0 info \(HEAD~1 \(/,
    );
    expect(result.stdout).toContain("**Gate: FAILED, ");
    expect(result.stdout).toContain(
      "no pending changeset declares a `major` bump of the fixed group `@workapi/*`",
    );
    expect(result.stdout).toContain("### `works-get` `GET /works.get`: 2 errors");
    expect(result.stdout).toContain(
      "| **error** | `response-property-removed` | `response.work.modified_date` | property removed: readers lose it |",
    );
    expect(result.stdout).toContain("pending changesets take it to 0.1.0");
  });

  it("passes once a pending changeset declares a major bump, naming it and the version it leads to", () => {
    removeModifiedDate();
    changeset("drop-modified-date", "major");
    const result = cli("HEAD~1", "--gate", "--format", "text");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /Gate: passed, \d+ error-level changes acknowledged by \.changeset\/drop-modified-date\.md/,
    );
    expect(result.stdout).toContain("is at 0.0.0; pending changesets take it to 1.0.0");
    expect(result.stdout).toContain("a major changeset takes 0.0.0 to 1.0.0 and a minor one to 0.1.0");
  });

  it("passes an additive change with no changeset at all, and lists warnings without failing", () => {
    rmSync(join(repo, ".changeset/earlier-minor.md"));
    const doc = bundle();
    doc.components.schemas.WorksGetResponse.properties.etag = { type: "string" };
    doc.components.schemas.ObservabilitySessionRecording.oneOf.push({ $ref: "#/components/schemas/Work" });
    writeBundle(doc);
    commit("additive");
    const result = cli("HEAD~1", "--gate", "--format", "json");
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.counts).toEqual({ error: 0, warning: 2, info: 2 });
    expect(report.gate).toMatchObject({ pass: true, errors: 0, warnings: 2, acknowledgedBy: [] });
    expect(report.gate.notes).toContain(
      "Release: the fixed group `@workapi/*` is at 0.0.0; no pending changeset releases it.",
    );
  });

  it("warns about a major changeset when nothing breaks (an accidental major)", () => {
    changeset("big-bang", "major");
    const doc = bundle();
    doc.components.schemas.WorksGetResponse.properties.etag = { type: "string" };
    writeBundle(doc);
    commit("additive with a major changeset");
    const result = cli("HEAD~1", "--gate", "--format", "text");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      "Warning: .changeset/big-bang.md declares a major bump but the contract has no error-level change: an accidental major?",
    );
  });

  it("reads the base from the default ref (main) and writes the report to --output", () => {
    git("checkout", "-q", "-b", "feature");
    removeModifiedDate();
    const result = cli("--gate", "--output", "report.md");
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(readFileSync(join(repo, "report.md"), "utf8")).toMatch(/^## Contract review: .* \(main \(/);
  });

  it("names a base given as a full commit id (as the workflow passes it) by its short id", () => {
    removeModifiedDate();
    const sha = git("rev-parse", "HEAD~1").trim();
    const short = git("rev-parse", "--short", "HEAD~1").trim();
    const result = cli(sha, "--format", "markdown");
    expect(result.status).toBe(0);
    expect(result.stdout.split("\n")[0]).toMatch(
      new RegExp(`\\(${short} → working tree packages/spec/openapi\\.json\\)$`),
    );
  });

  it("exits 2 and says why when the changesets cannot be read", () => {
    rmSync(join(repo, ".changeset/config.json"));
    removeModifiedDate();
    const result = cli("HEAD~1", "--gate");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("cannot read the pending changesets");
  });
});
