// The TypeScript samples the docs show for every operation (x-codeSamples in the bundled contract) compile
// against the client as published: each is written as a module that imports `@workapi/client`, and one
// `tsc --noEmit` checks them all against the built package's types (dist/, which `pnpm test` builds first).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HTTP_METHODS, loadSpec } from "@workapi/spec";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../", import.meta.url));
const builtTypes = join(root, "dist", "index.d.ts");

interface Sample {
  lang: string;
  label: string;
  source: string;
}

const spec = loadSpec();
const samples: Array<{ operationId: string; source: string }> = [];
const operations: string[] = [];
for (const item of Object.values(spec.paths) as Array<Record<string, { operationId: string }>>) {
  for (const method of HTTP_METHODS) {
    const operation = item[method] as { operationId: string; "x-codeSamples"?: Sample[] } | undefined;
    if (!operation) continue;
    operations.push(operation.operationId);
    for (const sample of operation["x-codeSamples"] ?? []) {
      if (sample.lang === "TypeScript")
        samples.push({ operationId: operation.operationId, source: sample.source });
    }
  }
}

const work = mkdtempSync(join(tmpdir(), "workapi-samples-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the TypeScript code samples of the docs", () => {
  it("are there for every operation", () => {
    expect(operations.length).toBeGreaterThan(20);
    expect(samples.map((sample) => sample.operationId).sort()).toEqual([...operations].sort());
  });

  it("each call its operation by name and handle errors by type", () => {
    for (const { operationId, source } of samples) {
      expect(source, operationId).toMatch(/import \{ createClient \} from "@workapi\/client";/);
      expect(source, operationId).toMatch(/await api\.[\w.]+\(/);
      expect(source, operationId).toMatch(/switch \(error\.type\)/);
    }
  });

  it("type-check against the built client", () => {
    expect(existsSync(builtTypes), "build the client first (pnpm -C packages/client build)").toBe(true);
    const files = samples.map(({ operationId, source }) => {
      const file = `${operationId}.ts`;
      writeFileSync(join(work, file), source);
      return file;
    });
    writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(
      join(work, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
          typeRoots: [join(root, "node_modules", "@types")],
          // The package as users get it: its built declarations, not its sources.
          paths: { "@workapi/client": [builtTypes] },
        },
        files,
      }),
    );
    let output = "";
    try {
      execFileSync(join(root, "node_modules", ".bin", "tsc"), ["-p", work], { encoding: "utf8" });
    } catch (error) {
      output = `${(error as { stdout?: string }).stdout ?? ""}${(error as { stderr?: string }).stderr ?? ""}`;
    }
    expect(output).toBe("");
  }, 120_000);
});
