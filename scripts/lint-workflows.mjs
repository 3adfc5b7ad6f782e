#!/usr/bin/env node
// Lints every GitHub Actions workflow in .github/workflows (they cannot run here): each must pass
// action-validator (the workflow schema), and every `pnpm <script>` / `npm run <script>` they call, in a
// step's `run` or in an action's inputs (the changesets action's `version` and `publish`), must be a script
// of the package.json it runs against (the root one, or the folder given by `pnpm -C <dir>` /
// `working-directory`).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const folder = join(root, ".github/workflows");
// pnpm's own commands, which are not package scripts.
const BUILTINS = new Set(
  "install i add remove rm update up exec dlx pack publish config store why list ls outdated rebuild link unlink import prune audit env setup create init patch deploy fetch licenses root bin".split(
    " ",
  ),
);

function scriptsOf(dir) {
  const file = join(dir, "package.json");
  return existsSync(file) ? Object.keys(JSON.parse(readFileSync(file, "utf8")).scripts ?? {}) : undefined;
}

/** The scripts a shell command line calls: [{ dir, script }] for `pnpm [-C dir] [run] x` and `npm run x`. */
export function scriptCalls(command, cwd) {
  const calls = [];
  for (const segment of command.split(/&&|\|\||;|\n|\|/)) {
    const words = segment.trim().split(/\s+/);
    const at = words.findIndex((word) => word === "pnpm" || word === "npm");
    if (at < 0) continue;
    const tool = words[at];
    let dir = cwd;
    let i = at + 1;
    while (words[i]?.startsWith("-")) {
      if (words[i] === "-C" || words[i] === "--dir") {
        dir = resolve(cwd, words[i + 1]);
        i += 2;
      } else if (words[i] === "-w" || words[i] === "--workspace-root") {
        dir = root;
        i += 1;
      } else i += 1;
    }
    let script = words[i];
    if (script === "run" || script === "run-script") script = words[i + 1];
    else if (tool === "npm") continue; // npm's other commands (npm i -g pnpm@10, npm ci...) are not scripts
    if (!script || BUILTINS.has(script) || script.startsWith("-")) continue;
    calls.push({ dir, script });
  }
  return calls;
}

const files = existsSync(folder) ? readdirSync(folder).filter((name) => /\.ya?ml$/.test(name)) : [];
if (files.length === 0) {
  process.stderr.write("lint:workflows: no workflow files in .github/workflows\n");
  process.exit(1);
}
const problems = [];
let checked = 0;
for (const name of files.sort()) {
  const file = join(folder, name);
  const validated = spawnSync(join(root, "node_modules/.bin/action-validator"), [file], { encoding: "utf8" });
  if (validated.status !== 0)
    problems.push(`${name}: action-validator:\n${validated.stdout}${validated.stderr}`);
  const workflow = parse(readFileSync(file, "utf8"));
  for (const [jobId, job] of Object.entries(workflow?.jobs ?? {})) {
    const jobDir = resolve(root, job.defaults?.run?.["working-directory"] ?? ".");
    for (const [index, step] of (job.steps ?? []).entries()) {
      const cwd = resolve(jobDir, step["working-directory"] ?? ".");
      const commands = [step.run, ...Object.values(step.with ?? {})].filter(
        (value) => typeof value === "string",
      );
      for (const command of commands) {
        for (const { dir, script } of scriptCalls(command, cwd)) {
          checked += 1;
          const scripts = scriptsOf(dir);
          if (!scripts?.includes(script)) {
            const where = `${name}: jobs.${jobId}.steps[${index}] (${step.name ?? step.uses ?? "run"})`;
            problems.push(
              `${where} calls \`${script}\`, which ${join(dir, "package.json").slice(root.length + 1)} does not define`,
            );
          }
        }
      }
    }
  }
}
if (problems.length > 0) {
  for (const problem of problems) process.stderr.write(`lint:workflows: ${problem}\n`);
  process.exit(1);
}
process.stdout.write(
  `lint:workflows: ${files.length} workflows valid, ${checked} script calls all defined\n`,
);
