// `workapi-contract-diff changeset [base]`: writes the changeset the contract change needs, so nobody guesses
// its bump. The level follows from the findings (major for an error-level change the accepted-breaks file
// does not accept, minor when something was added, patch for any other change) and names every published
// package of the fixed group the contract is released in; the summary is the change's changelog, which the
// author may reword. The gate (gate.js) then finds it among the changesets the change adds.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { changelog } from "./changelog.js";
import { diffSpecs } from "./engine/index.js";
import { summarize } from "./format/common.js";
import { acceptedEntries, releaseGroup } from "./gate.js";
import { currentBranch } from "./load/git.js";

/**
 * The bump a report requires, and why.
 * @param {import("./engine/index.js").Report} report @param {{ rule: string, location: string }[]} accepted
 * @returns {{ bump: "major" | "minor" | "patch" | undefined, reason: string }}
 */
export function requiredBump(report, accepted = []) {
  const isAccepted = (/** @type {import("./index.js").Finding} */ f) =>
    accepted.some((e) => e.rule === f.rule && e.location === f.location);
  const breaking = report.findings.filter((f) => f.level === "error" && !isAccepted(f));
  if (breaking.length > 0)
    return { bump: "major", reason: `${breaking.length} breaking change${breaking.length === 1 ? "" : "s"}` };
  // An addition is a finding whose rule names something added (an operation, a property, a media type, a
  // parameter, an enum value...): callers gain something, which a minor release announces.
  const additions = report.findings.filter((f) => f.level !== "error" && /(^|-)added(-|$)/.test(f.rule));
  if (additions.length > 0)
    return { bump: "minor", reason: `${additions.length} addition${additions.length === 1 ? "" : "s"}` };
  if (report.findings.length > 0) return { bump: "patch", reason: "no breaking change and nothing added" };
  return { bump: undefined, reason: "no change to the contract" };
}

/** The changeset file's text: the group's packages at `bump`, and the summary. */
export function changesetText(
  /** @type {string[]} */ packages,
  /** @type {string} */ bump,
  /** @type {string} */ summary,
) {
  const releases = packages.map((/** @type {string} */ name) => `"${name}": ${bump}`).join("\n");
  return `---\n${releases}\n---\n\n${summary.trim()}\n`;
}

/** A file name for the change: --name, else the branch's, else the head's commit. */
function nameOf(/** @type {import("./cli.js").Options} */ options, /** @type {string} */ root) {
  if (options.name) return options.name.replace(/\.md$/, "");
  // Outside a repository, or on a detached HEAD: the fixed name below.
  const branch = currentBranch(root) ?? "";
  const slug = branch ? branch.toLowerCase().replace(/[^a-z0-9]+/g, "-") : "";
  return `contract-${slug.replace(/^-|-$/g, "") || "change"}`;
}

/**
 * @param {import("./cli.js").Options} options the parsed command line
 * @param {{ root: string, load: (source: import("./index.js").Source) => Promise<import("./engine/json.js").Json>, stdout: (s: string) => void,
 *   sources: () => { baseSource: import("./index.js").Source, headSource: import("./index.js").Source } }} io
 */
export async function changesetCommand(options, { root, load, stdout, sources }) {
  const { baseSource, headSource } = sources();
  const [base, head] = await Promise.all([load(baseSource), load(headSource)]);
  const report = diffSpecs(base, head, { deprecationDays: options.days });
  const { bump, reason } = requiredBump(report, acceptedEntries(root, options.accept));
  if (!bump) {
    stdout(`No changeset written: ${reason} between ${report.base} and ${report.head}.\n`);
    return 0;
  }
  const group = await releaseGroup(root, options.spec, options.package);
  const summary = [
    `Contract: ${summarize(report.counts)} (${reason}: ${bump}).`,
    "",
    changelog(report, { format: "markdown", title: "Contract changes" }),
  ].join("\n");
  const folder = join(root, ".changeset");
  if (!existsSync(folder)) mkdirSync(folder, { recursive: true });
  const file = `.changeset/${nameOf(options, root)}.md`;
  writeFileSync(join(root, file), changesetText(group.packages, bump, summary));
  stdout(`Wrote ${file}: ${bump} for ${group.label} (${reason}). Edit its words, not its level.\n`);
  return 0;
}
