// What one run of release:verify shares across its steps: the repository, when it began, its temporary folder
// (removed by verify.mjs at the end), the summary it prints, and how it logs and fails.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const started = Date.now();
export const work = mkdtempSync(join(tmpdir(), "workapi-release-verify-"));
/** One line per thing shown, printed at the end of the run. */
export const summary = [];

export function log(line) {
  const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  process.stdout.write(`[release:verify ${seconds}s] ${line}\n`);
}

export function fail(message) {
  throw new Error(message);
}
