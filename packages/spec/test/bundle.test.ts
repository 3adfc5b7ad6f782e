// The bundle is made with Redocly's library in process (scripts/redocly.mjs), not by starting the CLI: it must be
// what the CLI makes (the CLI lints the contract and is what the project documents), and a contract that does
// not bundle must be told by file, line and message (`pnpm dev` shows them).
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleContract } from "../scripts/redocly.mjs";

const root = new URL("../../../", import.meta.url).pathname;
const copy = mkdtempSync(join(tmpdir(), "workapi-bundle-"));
cpSync(join(root, "spec"), join(copy, "spec"), { recursive: true });
cpSync(join(root, "redocly.yaml"), join(copy, "redocly.yaml"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

type Problem = { file: string; line?: number; message: string };
const problemsOf = async (): Promise<Problem[]> => {
  try {
    await bundleContract(copy);
  } catch (error) {
    return (error as { problems: Problem[] }).problems;
  }
  return [];
};
/** Runs `check` with `file` of the copy changed by `change`, then puts the file back. */
const editing = async (file: string, change: (text: string) => string, check: () => Promise<void>) => {
  const path = join(copy, file);
  const text = readFileSync(path, "utf8");
  writeFileSync(path, change(text));
  try {
    await check();
  } finally {
    writeFileSync(path, text);
  }
};

describe("the bundle", () => {
  it("is the Redocly CLI's", async () => {
    const out = join(copy, "cli.json");
    execFileSync(
      join(root, "node_modules", ".bin", "redocly"),
      ["bundle", "spec/openapi.yaml", "--ext", "json", "-o", out],
      {
        cwd: root,
        stdio: "ignore",
      },
    );
    expect(await bundleContract(root)).toEqual(JSON.parse(readFileSync(out, "utf8")));
  });

  it("names the file and line of YAML that does not parse, in the root file or another", async () => {
    await editing(
      "spec/openapi.yaml",
      (text) => text.replace("paths:", "paths:\n  broken: [unclosed"),
      async () => {
        expect(await problemsOf()).toEqual([
          expect.objectContaining({ file: "spec/openapi.yaml", line: expect.any(Number) }),
        ]);
      },
    );
    await editing(
      "spec/paths/accounts.get.yaml",
      (text) => `${text}\n  broken: [unclosed\n`,
      async () => {
        expect(await problemsOf()).toContainEqual(
          expect.objectContaining({ file: "spec/paths/accounts.get.yaml", line: expect.any(Number) }),
        );
      },
    );
  });

  it("names the file and line of a reference that resolves to nothing", async () => {
    const to = "$ref: ../components/schemas/NoSuchSchema.yaml";
    await editing(
      "spec/paths/accounts.get.yaml",
      (text) => text.replace(/\$ref: [^\n]+/, to),
      async () => {
        const [problem] = await problemsOf();
        expect(problem).toMatchObject({ file: "spec/paths/accounts.get.yaml", line: expect.any(Number) });
        expect(problem?.message).toMatch(/NoSuchSchema/);
      },
    );
    expect(await problemsOf()).toEqual([]);
  });
});
