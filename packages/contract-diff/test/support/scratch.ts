// A scratch git repository shaped like this one, for tests of the command line: the real split spec under
// spec/, a workspace whose fixed group releases it, and a major changeset already pending on the base.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../../bin/workapi-contract-diff.js", import.meta.url));
const specDir = fileURLToPath(new URL("../../../../spec", import.meta.url));
const changesetConfig = readFileSync(new URL("../../../../.changeset/config.json", import.meta.url), "utf8");
export const TAG = "spec/components/schemas/Tag.yaml";

export type Scratch = ReturnType<typeof scratchRepo>;

/** Makes the repository and its base commit; `remove()` deletes it. */
export function scratchRepo() {
  const repo = mkdtempSync(join(tmpdir(), "contract-diff-cli-"));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  const read = (path: string) => readFileSync(join(repo, path), "utf8");
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], {
      cwd: repo,
      encoding: "utf8",
    });
  const commit = (message: string) => {
    git("add", "-A");
    git("commit", "-q", "-m", message);
  };
  const changeset = (name: string, bump: string) =>
    write(`.changeset/${name}.md`, `---\n"@workapi/spec": ${bump}\n---\n\nA change.\n`);
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { cwd: repo, encoding: "utf8" });
  /** The same, without blocking the event loop (for a test that serves files from this process). */
  const cliAsync = (...args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, [bin, ...args], { cwd: repo });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      child.on("close", (status) => done({ status, stdout, stderr }));
    });
  const removeTagDescription = () =>
    write(
      TAG,
      read(TAG).replace(
        "      description:\n        type: string\n        description: What the tag means.\n",
        "",
      ),
    );
  const addTagColour = () =>
    write(
      TAG,
      read(TAG).replace(
        "      name:\n",
        "      colour:\n        type: string\n        description: A colour.\n      name:\n",
      ),
    );

  git("init", "-q", "-b", "main");
  write("package.json", JSON.stringify({ name: "scratch", private: true }));
  write("pnpm-workspace.yaml", "packages:\n  - packages/*\n");
  write("packages/spec/package.json", JSON.stringify({ name: "@workapi/spec", version: "0.0.0" }));
  write("packages/types/package.json", JSON.stringify({ name: "@workapi/types", version: "0.0.0" }));
  write(".changeset/config.json", changesetConfig);
  write(".changeset/README.md", "Changesets live here.\n");
  changeset("earlier-major", "major");
  cpSync(specDir, join(repo, "spec"), { recursive: true });
  commit("base");
  const remove = () => rmSync(repo, { recursive: true, force: true });
  return {
    repo,
    write,
    read,
    git,
    commit,
    changeset,
    cli,
    cliAsync,
    removeTagDescription,
    addTagColour,
    remove,
  };
}
