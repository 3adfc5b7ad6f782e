#!/usr/bin/env node
// Lints every GitHub Actions workflow in .github/workflows, and those of the examples (examples/<name>/.github/
// workflows, each example the root of the project it shows), since none of them can run here: each must pass
// action-validator (the workflow schema), and every `pnpm <script>` / `npm run <script>` / `npm test` they
// call, in a step's `run` or in an action's inputs (the changesets action's `version` and `publish`), must be
// a script of the package.json it runs against (its project's root one, or the folder given by
// `pnpm -C <dir>` / `working-directory`).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** npm's own names for the scripts it runs without `run`. */
const NPM_SCRIPTS = { test: "test", t: "test", start: "start", stop: "stop", restart: "restart" };
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

/**
 * The scripts a shell command line calls: [{ dir, script }] for `pnpm [-C dir] [run] x`, `npm run x` and
 * `npm test`; `project` is the root `pnpm -w` runs in.
 */
export function scriptCalls(command, cwd, project = root) {
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
        dir = project;
        i += 1;
      } else i += 1;
    }
    let script = words[i];
    if (script === "run" || script === "run-script") script = words[i + 1];
    else if (tool === "npm" && Object.hasOwn(NPM_SCRIPTS, script)) script = NPM_SCRIPTS[script];
    else if (tool === "npm") continue; // npm's other commands (npm i -g pnpm@10, npm ci...) are not scripts
    if (!script || BUILTINS.has(script) || script.startsWith("-")) continue;
    calls.push({ dir, script });
  }
  return calls;
}

/** The workflows to lint: { file, name, project }, `project` being the root of the project they run in. */
function workflows() {
  const found = [];
  const collect = (project) => {
    const folder = join(project, ".github/workflows");
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder).sort()) {
      if (/\.ya?ml$/.test(name))
        found.push({ file: join(folder, name), name: relative(root, join(folder, name)), project });
    }
  };
  collect(root);
  const examples = join(root, "examples");
  if (existsSync(examples)) for (const name of readdirSync(examples).sort()) collect(join(examples, name));
  return found;
}

const files = workflows();
if (!files.some(({ project }) => project === root)) {
  process.stderr.write("lint:workflows: no workflow files in .github/workflows\n");
  process.exit(1);
}
const problems = [];
let checked = 0;
for (const { file, name, project } of files) {
  const validated = spawnSync(join(root, "node_modules/.bin/action-validator"), [file], { encoding: "utf8" });
  if (validated.status !== 0)
    problems.push(`${name}: action-validator:\n${validated.stdout}${validated.stderr}`);
  const workflow = parse(readFileSync(file, "utf8"));
  for (const [jobId, job] of Object.entries(workflow?.jobs ?? {})) {
    const jobDir = resolve(project, job.defaults?.run?.["working-directory"] ?? ".");
    for (const [index, step] of (job.steps ?? []).entries()) {
      const cwd = resolve(jobDir, step["working-directory"] ?? ".");
      const commands = [step.run, ...Object.values(step.with ?? {})].filter(
        (value) => typeof value === "string",
      );
      for (const command of commands) {
        for (const { dir, script } of scriptCalls(command, cwd, project)) {
          checked += 1;
          const scripts = scriptsOf(dir);
          if (!scripts?.includes(script)) {
            const where = `${name}: jobs.${jobId}.steps[${index}] (${step.name ?? step.uses ?? "run"})`;
            problems.push(
              `${where} calls \`${script}\`, which ${relative(root, join(dir, "package.json"))} does not define`,
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
