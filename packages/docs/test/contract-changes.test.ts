// The release writes each version's contract changes (scripts/release/contract-changes.mjs), which the docs
// page's changelog shows: a scratch repository with the real split spec, a released tag, then a change.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error: a script of the repository, plain JavaScript without declarations
import { withSection, writeContractChanges } from "../../../scripts/release/contract-changes.mjs";

const specDir = fileURLToPath(new URL("../../../spec", import.meta.url));
let repo: string;
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd: repo,
    encoding: "utf8",
  });
const version = (v: string) =>
  writeFileSync(
    join(repo, "packages/spec/package.json"),
    JSON.stringify({ name: "@workapi/spec", version: v }),
  );

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "contract-changes-"));
  git("init", "-q", "-b", "main");
  mkdirSync(join(repo, "packages/spec"), { recursive: true });
  cpSync(specDir, join(repo, "spec"), { recursive: true });
  version("1.0.0");
  git("add", "-A");
  git("commit", "-q", "-m", "release 1.0.0");
  git("tag", "@workapi/spec@1.0.0");
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe("the contract changes of a release", () => {
  it("lists the changes since the previous release's tag, and replaces the section when run again", async () => {
    const tag = join(repo, "spec/components/schemas/Tag.yaml");
    writeFileSync(
      tag,
      readFileSync(tag, "utf8").replace(
        "      description:\n        type: string\n        description: What the tag means.\n",
        "",
      ),
    );
    version("2.0.0");
    const result = await writeContractChanges({ root: repo });
    expect(result).toMatchObject({ version: "2.0.0", previous: "1.0.0" });
    const text = readFileSync(join(repo, "packages/spec/CONTRACT-CHANGES.md"), "utf8");
    expect(text).toMatch(/^# Contract changes\n/);
    expect(text).toContain("## 2.0.0\n\n### Since 1.0.0");
    expect(text).toContain("#### `POST /tags.create` (tags-create)");
    expect(text).toContain("response-optional-property-removed");
    await writeContractChanges({ root: repo });
    expect(readFileSync(join(repo, "packages/spec/CONTRACT-CHANGES.md"), "utf8")).toBe(text);
  });

  it("keeps older versions below the new one", () => {
    const first = withSection("", "1.0.0", "## 1.0.0\n\nfirst");
    const second = withSection(first, "2.0.0", "## 2.0.0\n\nsecond");
    expect(second.indexOf("## 2.0.0")).toBeLessThan(second.indexOf("## 1.0.0"));
    expect(withSection(second, "2.0.0", "## 2.0.0\n\nagain")).not.toContain("second");
  });
});
