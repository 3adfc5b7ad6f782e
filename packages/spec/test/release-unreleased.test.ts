// The release check (scripts/release/check.mjs, run by `pnpm release`, `pnpm release:check` and
// `pnpm release:verify`) refuses to release a contract that still marks operations x-unreleased, naming each
// one: on a scratch spec package whose bundled contract is this repository's with two operations so marked.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import * as unreleased from "../../../scripts/release/unreleased.mjs";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
const check = join(repo, "scripts", "release", "check.mjs");
const scratch = mkdtempSync(join(tmpdir(), "workapi-release-unreleased-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Doc = { paths: Record<string, Record<string, { "x-unreleased"?: boolean }>> };
const bundled = (): Doc => JSON.parse(readFileSync(join(repo, "packages/spec/openapi.json"), "utf8"));
const unreleasedOperations = unreleased.unreleasedOperations as (doc: unknown) => unknown[];

/** A spec package in a scratch folder with `doc` as its bundled contract. */
function specPackage(name: string, doc: Doc) {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "@workapi/spec", version: "0.0.0" }));
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc));
  return dir;
}

describe("the release check and x-unreleased operations", () => {
  const marked = bundled();
  for (const method of ["get", "post"]) {
    const operation = marked.paths["/accounts.get"]?.[method];
    if (operation) operation["x-unreleased"] = true;
  }

  it("finds every operation marked x-unreleased, and none in a contract without the mark", () => {
    const clean = bundled();
    for (const item of Object.values(clean.paths))
      for (const operation of Object.values(item)) delete operation["x-unreleased"];
    expect(unreleasedOperations(clean)).toEqual([]);
    expect(unreleasedOperations(marked)).toEqual([
      { method: "GET", path: "/accounts.get", operationId: "accounts-get" },
      { method: "POST", path: "/accounts.get", operationId: "accounts-get-post" },
    ]);
  });

  it("fails, naming them, before it packs anything", () => {
    const result = spawnSync(process.execPath, [check, "--no-registry", specPackage("marked", marked)], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("2 operations are still marked x-unreleased");
    expect(result.stderr).toContain(
      "GET /accounts.get (accounts-get), POST /accounts.get (accounts-get-post)",
    );
    expect(result.stderr).toMatch(/remove x-unreleased/);
    expect(result.stdout).not.toMatch(/release check: .* ok/);
  });
});
