// The README's sandbox section, run as a user runs it: a Vitest run of its own whose globalSetup is
// examples/sandbox-global-setup.ts (the stand-in started inside the run) and whose test file is
// examples/sandbox-suite.ts, three copies of it at once, each in a sandbox of its own.
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = fileURLToPath(new URL("../", import.meta.url));

it("starts the stand-in from a globalSetup and runs parallel files against it", async () => {
  // Inside the package, so that @workapi/server and the client resolve as from a user's project.
  const project = mkdtempSync(join(root, ".stand-in-run-"));
  try {
    copyFileSync(join(root, "examples/sandbox-global-setup.ts"), join(project, "vitest.global-setup.ts"));
    for (const name of ["tags", "works", "parts"]) {
      copyFileSync(join(root, "examples/sandbox-suite.ts"), join(project, `${name}.test.ts`));
    }
    writeFileSync(
      join(project, "vitest.config.ts"),
      `import { defineConfig } from "vitest/config";
import base from "../vitest.config.ts";
export default defineConfig({
  resolve: base.resolve,
  test: { include: ["*.test.ts"], globalSetup: ["./vitest.global-setup.ts"], testTimeout: 60_000, hookTimeout: 120_000 },
});
`,
    );
    const vitest = join(root, "node_modules/vitest/vitest.mjs");
    const { stdout } = await promisify(execFile)(process.execPath, [vitest, "run", "--root", project], {
      cwd: project,
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(stdout).toMatch(/Test Files\s+3 passed \(3\)/);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}, 240_000);
