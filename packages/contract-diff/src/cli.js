// The command line: reads the bundled contract at a git ref (or a file) and in the working tree, reports the
// findings, and with --gate decides the release gate against the pending changesets.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { diffContracts } from "./diff.js";
import { evaluateGate } from "./gate.js";
import { formatReport } from "./report.js";

const DEFAULT_SPEC = "packages/spec/openapi.json";
const FORMATS = ["text", "markdown", "json"];

export const USAGE = `Usage: workapi-contract-diff [base-ref] [options]   (in this repository: pnpm contract:diff)

Compares the bundled contract at base-ref (default origin/main, else main, else HEAD~1) with the working
tree's copy, or --base-file with --head-file. Run \`pnpm generate\` first so the working tree's bundle is current.

  --gate                 exit 1 when an error-level change has no pending changeset declaring a major bump
                         of the contract's fixed group (every .changeset/*.md but README.md is pending)
  --fail-on-breaking     exit 1 on any error-level change, changesets aside
  --format <f>           text, markdown or json (default: text on a terminal, else markdown)
  --output <file>        write the report to a file instead of standard output
  --spec <path>          the bundle inside the repository (default ${DEFAULT_SPEC})
  --base-file <path>     a bundle file to compare from instead of a git ref
  --head-file <path>     a bundle file to compare to instead of the working tree's
  -h, --help             this text

Exit codes: 0 passed, 1 failed (--gate or --fail-on-breaking), 2 usage or input error.`;

export class UsageError extends Error {}

function parse(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        gate: { type: "boolean", default: false },
        "fail-on-breaking": { type: "boolean", default: false },
        format: { type: "string" },
        output: { type: "string" },
        spec: { type: "string", default: DEFAULT_SPEC },
        "base-file": { type: "string" },
        "head-file": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (err) {
    throw new UsageError(err.message);
  }
  const { values, positionals } = parsed;
  for (const name of ["format", "output", "spec", "base-file", "head-file"]) {
    if (values[name] === "") throw new UsageError(`--${name} needs a value`);
  }
  if (values.format !== undefined && !FORMATS.includes(values.format)) {
    throw new UsageError(`--format must be markdown, text or json, not ${values.format}`);
  }
  if (positionals.length > 1) throw new UsageError(`one base ref only (got ${positionals.join(" and ")})`);
  if (positionals[0] && values["base-file"]) throw new UsageError("give a base ref or --base-file, not both");
  return { ...values, ref: positionals[0] };
}

function git(cwd, args) {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 28,
  });
}

/** The repository root: the git top level of `cwd`, or `cwd` itself outside a repository. */
function repositoryRoot(cwd) {
  try {
    return git(cwd, ["rev-parse", "--show-toplevel"]).trim();
  } catch {
    return cwd;
  }
}

function refExists(root, ref) {
  try {
    git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

function parseJson(text, where) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${where} is not JSON (${err.message})`);
  }
}

function readJsonFile(path) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${err.message}`);
  }
  return parseJson(text, path);
}

function readBase(root, options) {
  if (options["base-file"]) return { doc: readJsonFile(options["base-file"]), label: options["base-file"] };
  const spec = options.spec;
  const ref = options.ref ?? ["origin/main", "main", "HEAD~1"].find((r) => refExists(root, r));
  if (!ref)
    throw new UsageError("no base to compare with: pass a git ref (for example HEAD~1) or --base-file");
  let text;
  try {
    text = git(root, ["show", `${ref}:${spec}`]);
  } catch (err) {
    const why = String(err.stderr ?? err.message)
      .trim()
      .split("\n")[0]
      .replace(/\.$/, "");
    throw new UsageError(
      `cannot read ${spec} at ${ref} (${why}). Pass a ref that has the bundle (git fetch origin main, or HEAD~1), or --base-file <path>.`,
    );
  }
  let label = ref;
  try {
    const short = git(root, ["rev-parse", "--short", `${ref}^{commit}`]).trim();
    label = /^[0-9a-f]{40,64}$/.test(ref) ? short : `${ref} (${short})`;
  } catch {
    // a tree or blob ref has no commit to name
  }
  return { doc: parseJson(text, `${spec} at ${ref}`), label };
}

/**
 * Runs the command line; resolves to the exit code. `io` lets tests capture the streams.
 * @param {string[]} argv
 * @param {{ cwd?: string, stdout?: (s: string) => void, stderr?: (s: string) => void, isTTY?: boolean }} [io]
 * @returns {Promise<number>}
 */
export async function main(argv, io = {}) {
  const cwd = io.cwd ?? process.cwd();
  const stdout = io.stdout ?? ((s) => process.stdout.write(s));
  const stderr = io.stderr ?? ((s) => process.stderr.write(s));
  try {
    const options = parse(argv);
    if (options.help) {
      stdout(`${USAGE}\n`);
      return 0;
    }
    const root = repositoryRoot(cwd);
    const base = readBase(root, options);
    const headPath = options["head-file"] ? resolve(cwd, options["head-file"]) : resolve(root, options.spec);
    const head = readJsonFile(headPath);
    const diff = diffContracts(base.doc, head);
    const format = options.format ?? ((io.isTTY ?? process.stdout.isTTY) ? "text" : "markdown");
    const context = {
      base: base.label,
      head: options["head-file"] ?? `working tree ${relative(root, headPath)}`,
    };
    if (options.gate) {
      try {
        context.gate = await evaluateGate(diff, { root, specFile: resolve(root, options.spec) });
      } catch (err) {
        throw new UsageError(`cannot read the pending changesets in ${root}: ${err.message}`);
      }
    }
    const report = formatReport(diff, format, context);
    if (options.output) writeFileSync(resolve(cwd, options.output), report);
    else stdout(report);
    if (context.gate && !context.gate.pass) return 1;
    return options["fail-on-breaking"] && diff.counts.error > 0 ? 1 : 0;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    stderr(`contract:diff: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
}
