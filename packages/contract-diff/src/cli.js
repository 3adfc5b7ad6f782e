// The command line: `workapi-contract-diff [base] [head]` reviews a change, `rules` lists the rules,
// `changelog <from> <to>` writes the contract changes as release notes. Exit codes: 0 passed, 1 the gate (or
// --fail-on) failed, 2 bad input or usage, whatever went wrong: exit 1 means the contract, never a crash.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { changelog } from "./changelog.js";
import { diffSpecs } from "./engine/index.js";
import { FORMATS, formatReport, rulesTable } from "./format/index.js";
import { commitOf, repositoryRoot } from "./load/git.js";
import { diffHunks } from "./load/hunks.js";
import { firstRevision, InputError, loadContract, sourceOf } from "./load/index.js";

const DEFAULT_SPEC = "spec/openapi.yaml";

export const USAGE = `Usage:
  workapi-contract-diff [base] [head] [options]     review the change from base to head
  workapi-contract-diff rules [--format markdown|text|json]
  workapi-contract-diff changelog <from> <to> [--format markdown|text|json] [--output <file>]
  workapi-contract-diff changeset [base] [--name <name>]   write the changeset the change needs
  workapi-contract-diff post-review <review.json> [--pull <n>] [--repository <owner/name>]
                                                    post a github-review report (GITHUB_TOKEN, GITHUB_API_URL)

base and head are each a file (JSON or YAML; one file or a split spec's entry file), an http(s) URL, or a git
revision (HEAD~1, origin/main, a tag), read at --spec. base defaults to origin/main, else main, else HEAD~1;
head to the working tree's --spec.

Options:
  --gate                   exit 1 when an error-level change is neither acknowledged by a changeset that this
                           change adds (declaring a major bump of the contract's fixed group) nor listed in the
                           accepted-breaks file
  --fail-on <level>        exit 1 on any finding at error (or warning) level, changesets aside
  --format <f>             ${FORMATS.join(", ")} (default: text on a terminal, else markdown)
  --output <file>          write the report to a file instead of standard output
  --spec <path>            the contract's entry file inside the repository (default ${DEFAULT_SPEC})
  --accept <file>          the accepted-breaks file (default .contract-diff/accepted-breaks.yaml, when present)
  --package <name>         the workspace package the contract is released in (default: the one holding --spec,
                           else the only fixed group's)
  --deprecation-days <n>   minimum days between deprecating and removing (default 0)
  --source-url <url>       prefix that turns file:line into links in Markdown (…/blob/<sha>/)
  --commit <sha>           github-review: the commit the review is on (default: head's commit, else HEAD)
  --base-file, --head-file the same as giving base and head as files (kept for older scripts)
  --fail-on-breaking       the same as --fail-on error
  -h, --help               this text

Exit codes: 0 passed; 1 the gate failed, or --fail-on found a finding at that level; 2 bad input or usage
(a source that cannot be read, is not OpenAPI 3.0 or 3.1, or an unknown option).`;

export class UsageError extends Error {}

const COMMANDS = ["rules", "changelog", "changeset", "post-review"];

// Each string option is given once (`multiple: false` types its value as one string).
const OPTIONS = /** @type {const} */ ({
  gate: { type: "boolean", default: false },
  "fail-on": { type: "string", multiple: false },
  "fail-on-breaking": { type: "boolean", default: false },
  format: { type: "string", multiple: false },
  output: { type: "string", multiple: false },
  spec: { type: "string", multiple: false, default: DEFAULT_SPEC },
  accept: { type: "string", multiple: false },
  package: { type: "string", multiple: false },
  "deprecation-days": { type: "string", multiple: false },
  "source-url": { type: "string", multiple: false },
  commit: { type: "string", multiple: false },
  name: { type: "string", multiple: false },
  pull: { type: "string", multiple: false },
  repository: { type: "string", multiple: false },
  "base-file": { type: "string", multiple: false },
  "head-file": { type: "string", multiple: false },
  help: { type: "boolean", short: "h", default: false },
});

/** The options and positionals of `argv`; an unknown option is a UsageError. */
function parsedArgs(/** @type {string[]} */ argv) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

function parse(/** @type {string[]} */ argv) {
  const { values, positionals } = parsedArgs(argv);
  for (const [name, option] of Object.entries(OPTIONS)) {
    const value = /** @type {Record<string, unknown>} */ (values)[name];
    if (option.type === "string" && value === "") throw new UsageError(`--${name} needs a value`);
  }
  const command = COMMANDS.includes(positionals[0] ?? "") ? (positionals.shift() ?? "diff") : "diff";
  const days = values["deprecation-days"] === undefined ? 0 : Number(values["deprecation-days"]);
  if (!Number.isInteger(days) || days < 0)
    throw new UsageError("--deprecation-days takes a whole number of days, 0 or more");
  const failOn = values["fail-on"] ?? (values["fail-on-breaking"] ? "error" : undefined);
  if (failOn !== undefined && failOn !== "error" && failOn !== "warning")
    throw new UsageError("--fail-on takes error or warning");
  return { ...values, command, positionals, days, failOn };
}

/**
 * @typedef {ReturnType<typeof parse>} Options the parsed command line
 * @typedef {{ cwd: string, root: string, spec: string }} Where
 * @typedef {(source: string | import("./index.js").Source) => Promise<import("./index.js").LoadedSpec>} Load
 * @typedef {(text: string) => void} Emit
 */

/**
 * Runs the command line; resolves to the exit code. `io` lets tests capture the streams.
 * @param {string[]} argv
 * @param {{ cwd?: string, stdout?: (s: string) => void, stderr?: (s: string) => void, isTTY?: boolean,
 *   env?: Record<string, string | undefined> }} [io]
 */
export async function main(argv, io = {}) {
  const cwd = io.cwd ?? process.cwd();
  const stdout = io.stdout ?? ((/** @type {string} */ s) => process.stdout.write(s));
  const stderr = io.stderr ?? ((/** @type {string} */ s) => process.stderr.write(s));
  try {
    const options = parse(argv);
    if (options.help) {
      stdout(`${USAGE}\n`);
      return 0;
    }
    const root = repositoryRoot(cwd);
    const emit = (/** @type {string} */ text) =>
      options.output ? writeFileSync(resolve(cwd, options.output), text) : stdout(text);
    if (options.command === "rules") return await rules(options, emit);
    const where = { cwd, root, spec: options.spec };
    const load = (/** @type {string | import("./index.js").Source} */ source) => loadContract(source, where);
    if (options.command === "changelog") return await changelogCommand(options, load, emit);
    if (options.command === "post-review") return await postReviewCommand(options, cwd, stdout, io.env);
    if (options.command === "changeset") {
      const { changesetCommand } = await import("./changeset.js");
      return await changesetCommand(options, { root, load, stdout, sources: () => sources(options, where) });
    }
    return await review(options, { where, load, emit, isTTY: io.isTTY });
  } catch (err) {
    const usage = err instanceof UsageError;
    const known = usage || err instanceof InputError;
    stderr(
      `workapi-contract-diff: ${known ? err.message : `unexpected failure: ${(err instanceof Error && err.stack) || err}`}\n${usage ? `\n${USAGE}\n` : ""}`,
    );
    return 2;
  }
}

/** `rules`: the rules table (every rule module loaded, which a review does not need). */
async function rules(/** @type {Options} */ options, /** @type {Emit} */ emit) {
  const { RULES } = await import("./rules/index.js");
  const format = options.format ?? "text";
  if (format !== "markdown" && format !== "text" && format !== "json")
    throw new UsageError("rules --format takes markdown, text or json");
  emit(rulesTable(RULES, format));
  return 0;
}

/** `changelog <from> <to>`: the contract changes as release notes. */
async function changelogCommand(
  /** @type {Options} */ options,
  /** @type {Load} */ load,
  /** @type {Emit} */ emit,
) {
  if (options.positionals.length !== 2)
    throw new UsageError("changelog takes two revisions or files: changelog <from> <to>");
  const format = options.format ?? "markdown";
  if (format !== "markdown" && format !== "text" && format !== "json")
    throw new UsageError("changelog --format takes markdown, text or json");
  const [from, to] = await Promise.all([
    load(options.positionals[0] ?? ""),
    load(options.positionals[1] ?? ""),
  ]);
  emit(changelog(diffSpecs(from, to, { deprecationDays: options.days }), { format }));
  return 0;
}

/** `post-review <file>`: posts a github-review report on the pull request (github/post-review.js). */
async function postReviewCommand(
  /** @type {Options} */ options,
  /** @type {string} */ cwd,
  /** @type {(text: string) => void} */ stdout,
  env = process.env,
) {
  if (options.positionals.length !== 1) throw new UsageError("post-review takes the review file it posts");
  const { postReview, pullNumberOf } = await import("./github/post-review.js");
  const read = (/** @type {string} */ path) => readFileSync(resolve(cwd, path), "utf8");
  const pullNumber = pullNumberOf(options.pull, env, read);
  const repository = options.repository ?? env.GITHUB_REPOSITORY;
  if (!env.GITHUB_TOKEN) throw new UsageError("post-review needs GITHUB_TOKEN");
  if (!repository || !Number.isInteger(pullNumber))
    throw new UsageError(
      "post-review needs the repository and pull request (--repository, --pull or GitHub's env)",
    );
  let review;
  try {
    review = JSON.parse(read(options.positionals[0] ?? ""));
  } catch (err) {
    throw new InputError(
      `cannot read the review ${options.positionals[0]}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const apiUrl = env.GITHUB_API_URL ?? "https://api.github.com";
  let outcome;
  try {
    outcome = await postReview(review, { apiUrl, token: env.GITHUB_TOKEN, repository, pullNumber });
  } catch (err) {
    throw new InputError(`cannot post the review: ${err instanceof Error ? err.message : String(err)}`);
  }
  stdout(
    `review posted on ${repository}#${pullNumber}: ${outcome.created} new, ${outcome.updated} updated, ${outcome.unchanged} unchanged, ${outcome.deleted} stale deleted\n`,
  );
  return 0;
}

/** The review of a change: the report, the gate when asked for, and the exit code they make. */
/**
 * @param {Options} options
 * @param {{ where: Where, load: Load, emit: Emit, isTTY: boolean | undefined }} context
 */
async function review(options, { where, load, emit, isTTY }) {
  const { root } = where;
  const { baseSource, headSource } = sources(options, where);
  const [base, head] = await Promise.all([load(baseSource), load(headSource)]);
  const report = diffSpecs(base, head, { deprecationDays: options.days });
  const format = options.format ?? ((isTTY ?? process.stdout.isTTY) ? "text" : "markdown");
  if (!FORMATS.includes(/** @type {import("./index.js").Format} */ (format)))
    throw new UsageError(`--format takes ${FORMATS.join(", ")}, not ${format}`);
  const gate = options.gate ? await decideGate(report, options, root, baseSource) : undefined;
  const review =
    format === "github-review" ? reviewContext(options, root, baseSource, headSource) : undefined;
  emit(
    formatReport(report, /** @type {import("./index.js").Format} */ (format), {
      gate,
      sourceUrl: options["source-url"],
      review,
    }),
  );
  if (gate && !gate.pass) return 1;
  if (options.failOn === "error" && report.counts.error > 0) return 1;
  if (options.failOn === "warning" && report.counts.error + report.counts.warning > 0) return 1;
  return 0;
}

/**

 * github-review: the commit the review is on and the diff's hunks (only a git revision as base has them; from
 * files or URLs every finding is folded into the review's body). The sources are those sources() resolved:
 * a revision's commit is the one it named then.
 * @param {import("./engine/json.js").Json} options @param {string} root
 * @param {import("./index.js").Source} baseSource @param {import("./index.js").Source} headSource
 */
function reviewContext(options, root, baseSource, headSource) {
  const headRevision = headSource.kind === "revision" ? headSource.sha : undefined;
  // Outside a repository the review names no commit, and the poster takes the pull request's head.
  const commitId = options.commit ?? headRevision ?? commitOf(root, "HEAD");
  if (baseSource.kind !== "revision") return { commitId };
  const folder = dirname(options.spec) || ".";
  return { commitId, hunks: diffHunks(root, baseSource.sha, headRevision, [folder]) };
}

/**
 * The base and head to compare, from positionals, --base-file/--head-file and the defaults, each resolved
 * once (load/index.js's sourceOf: a file, a URL or a git revision); the head defaults to the working tree's
 * --spec.
 */
function sources(/** @type {Options} */ options, /** @type {Where} */ where) {
  if (options.positionals.length > 2)
    throw new UsageError(`at most a base and a head (got ${options.positionals.join(", ")})`);
  const baseArgument = options["base-file"] ?? options.positionals[0];
  const baseSource =
    baseArgument !== undefined
      ? sourceOf(baseArgument, where)
      : firstRevision(where.root, ["origin/main", "main", "HEAD~1"]);
  if (!baseSource)
    throw new UsageError("no base to compare with: name a revision (for example HEAD~1), a file or a URL");
  if (options["base-file"] && options.positionals.length > (options["head-file"] ? 0 : 1)) {
    throw new UsageError("give the base once: as a positional or as --base-file");
  }
  const headArgument =
    options["head-file"] ?? (options["base-file"] ? options.positionals[0] : options.positionals[1]);
  const headSource = sourceOf(headArgument ?? resolve(where.root, options.spec), where);
  return { baseSource, headSource };
}

/** --gate: whether the change's error-level findings are acknowledged (gate.js). */
async function decideGate(
  /** @type {import("./index.js").Report} */ report,
  /** @type {Options} */ options,
  /** @type {string} */ root,
  /** @type {import("./index.js").Source} */ baseSource,
) {
  try {
    // Loaded only for --gate: the changesets libraries take longer to load than a diff takes to run.
    const { evaluateGate } = await import("./gate.js");
    return await evaluateGate(report, {
      root,
      baseRef: baseSource.kind === "revision" ? baseSource.name : undefined,
      spec: options.spec,
      acceptFile: options.accept,
      packageName: options.package,
    });
  } catch (err) {
    throw new InputError(
      `cannot decide the gate in ${root}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
