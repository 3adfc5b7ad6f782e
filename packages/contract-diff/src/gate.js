// The pull request gate. An error-level finding fails it unless
//   - a changeset ADDED by the change under review (committed since the base, or not committed yet) declares
//     a `major` bump of the fixed group that publishes the contract: the break is then described to users in
//     the release notes by the changeset written for it; a major already pending on the base was written for
//     another change and acknowledges nothing here; or
//   - an entry of the accepted-breaks file names the finding's rule and location with a reason (a break that
//     is no release, such as fixing a contract that never matched the service).
// Changesets are read with the changesets libraries (the code `changeset version` runs).
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { read as readConfig } from "@changesets/config";
import getReleasePlan from "@changesets/get-release-plan";
import { getPackages } from "@manypkg/get-packages";
import { filesAdded } from "./load/git.js";
import { yaml } from "./load/yaml.js";

/** Where the accepted-breaks file is looked for when `--accept` names none. */
export const DEFAULT_ACCEPT_FILE = ".contract-diff/accepted-breaks.yaml";

/**
 * The package's types, declared once in ./index.d.ts:
 * @typedef {import("./index.js").Report} Report
 * @typedef {import("./index.js").AcceptEntry} AcceptEntry
 * @typedef {import("./index.js").GateResult} GateResult
 */

/**
 * The changeset files the change under review adds: those added since the merge base of `baseRef` and HEAD,
 * plus those added in the index or not tracked yet. Without a base revision, only the uncommitted ones.
 * @returns {{ files: Set<string>, note?: string }}
 */
export function addedChangesets(/** @type {string} */ root, /** @type {string | undefined} */ baseRef) {
  const keep = (/** @type {string} */ name) =>
    /^\.changeset\/[^/]+\.md$/.test(name) && !name.endsWith("/README.md");
  const added = filesAdded(root, baseRef, ".changeset");
  const files = new Set(added.files.filter(keep));
  let note;
  if (!baseRef) {
    note =
      "The base is no revision of this repository: only changesets not committed yet count as this change's.";
  } else if (!added.committed) {
    note = `${baseRef} shares no history with HEAD: only changesets not committed yet count as this change's.`;
  }
  return { files, ...(note ? { note } : {}) };
}

/**
 * The package the contract is released in and its fixed group: `packageName` when given, else the workspace
 * package whose folder holds the spec file, else (a split spec outside every package) the only fixed group.
 */
function groupOf(
  /** @type {string} */ root,
  /** @type {Awaited<ReturnType<typeof readConfig>>} */ config,
  /** @type {import("@manypkg/get-packages").Package[]} */ packages,
  /** @type {string} */ specFile,
  /** @type {string | undefined} */ packageName,
) {
  let owner = packageName ? packages.find((pkg) => pkg.packageJson.name === packageName) : undefined;
  if (packageName && !owner) throw new Error(`no workspace package is named ${packageName}`);
  owner ??= packages
    .filter((pkg) => resolve(specFile).startsWith(`${resolve(pkg.dir)}${sep}`))
    .sort((a, b) => b.dir.length - a.dir.length)[0];
  if (!owner && config.fixed.length === 1) {
    owner = packages
      .filter((pkg) => (config.fixed[0] ?? []).includes(pkg.packageJson.name))
      .sort((a, b) => a.packageJson.name.localeCompare(b.packageJson.name))[0];
  }
  if (!owner) {
    throw new Error(
      `no workspace package holds ${relative(root, specFile)}: name the package that releases it (--package)`,
    );
  }
  const name = owner.packageJson.name;
  const index = config.fixed.findIndex((/** @type {readonly string[]} */ group) => group.includes(name));
  if (index === -1) return { label: `\`${name}\``, packages: [name], owner };
  const raw = JSON.parse(readFileSync(join(root, ".changeset", "config.json"), "utf8"));
  const patterns = raw.fixed?.[index];
  const label = Array.isArray(patterns)
    ? `the fixed group ${patterns.map((/** @type {string} */ p) => `\`${p}\``).join(", ")}`
    : `\`${name}\``;
  return { label, packages: [...(config.fixed[index] ?? [name])], owner };
}

/**
 * The workspace's changesets config and the fixed group the contract is released in (groupOf).
 * @returns {Promise<{ config: Awaited<ReturnType<typeof readConfig>>, label: string, packages: string[],
 *   owner: import("@manypkg/get-packages").Package }>}
 */
export async function releaseGroup(
  /** @type {string} */ root,
  /** @type {string} */ spec,
  /** @type {string | undefined} */ packageName,
) {
  const workspace = await getPackages(root);
  const config = await readConfig(root, workspace);
  return { config, ...groupOf(root, config, workspace.packages, resolve(root, spec), packageName) };
}

/** The accepted-breaks file's entries: `acceptFile`, else the default file when it exists, else none. */
export function acceptedEntries(/** @type {string} */ root, /** @type {string | undefined} */ acceptFile) {
  const acceptPath = acceptFile ? resolve(root, acceptFile) : join(root, DEFAULT_ACCEPT_FILE);
  return acceptFile || existsSync(acceptPath) ? readAcceptFile(acceptPath) : [];
}

/**
 * Reads an accepted-breaks file: a YAML (or JSON) list of `{ rule, location, reason }`.
 * @returns {AcceptEntry[]}
 */
export function readAcceptFile(/** @type {string} */ path) {
  const value = yaml().parse(readFileSync(path, "utf8"));
  const list = value === null || value === undefined ? [] : Array.isArray(value) ? value : value.accepted;
  if (!Array.isArray(list)) throw new Error(`${path} must be a list of { rule, location, reason }`);
  return list.map((entry, index) => {
    for (const field of ["rule", "location", "reason"]) {
      if (typeof entry?.[field] !== "string" || entry[field].trim() === "") {
        throw new Error(`${path}: entry ${index + 1} needs a non-empty \`${field}\``);
      }
    }
    return { rule: entry.rule, location: entry.location, reason: entry.reason };
  });
}

/**
 * @param {Report} report
 * @param {{ root: string, baseRef?: string, spec: string, acceptFile?: string, packageName?: string }} where
 *   `spec`: the contract's file (the entry of the split spec or a bundle) inside the repository, which names
 *   the package that publishes it; `acceptFile`: the accepted-breaks file (default `.contract-diff/accepted-breaks.yaml`
 *   when it exists)
 * @returns {Promise<GateResult>}
 */
export async function evaluateGate(report, { root, baseRef, spec, acceptFile, packageName }) {
  const { config, label, packages, owner } = await releaseGroup(root, spec, packageName);
  const plan = await getReleasePlan(root, undefined, config);
  const majors = plan.changesets.filter((changeset) =>
    changeset.releases.some((release) => release.type === "major" && packages.includes(release.name)),
  );
  const added = addedChangesets(root, baseRef);
  const fileOf = (/** @type {{ id: string }} */ changeset) => `.changeset/${changeset.id}.md`;
  const acknowledging = majors.map(fileOf).filter((file) => added.files.has(file));
  const pendingMajors = majors.map(fileOf).filter((file) => !added.files.has(file));

  const entries = acceptedEntries(root, acceptFile);
  const used = new Set();
  const accepted = [];
  const errors = report.findings.filter((finding) => finding.level === "error");
  for (const finding of errors) {
    const entry = entries.find((e) => e.rule === finding.rule && e.location === finding.location);
    if (entry) {
      accepted.push({ finding, entry });
      used.add(entry);
    }
  }
  const staleAccepts = entries.filter((entry) => !used.has(entry));
  const unacknowledged = errors.length - accepted.length;

  const notes = [];
  if (added.note) notes.push(added.note);
  if (unacknowledged === 0 && acknowledging.length > 0) {
    notes.push(
      `Warning: ${acknowledging.map((f) => `\`${f}\``).join(", ")} declare${acknowledging.length === 1 ? "s" : ""} a \`major\` bump ` +
        "but the contract has no unaccepted error-level change: an accidental major? Keep it only if something else breaks.",
    );
  }
  if (unacknowledged > 0 && acknowledging.length === 0 && pendingMajors.length > 0) {
    notes.push(
      `${pendingMajors.map((f) => `\`${f}\``).join(", ")} ${pendingMajors.length === 1 ? "is" : "are"} pending from earlier changes: ` +
        "a major written for another change does not describe this one to users, so it acknowledges nothing here.",
    );
  }
  for (const entry of staleAccepts) {
    notes.push(
      `Accepted break no longer found: ${entry.rule} at ${entry.location} (${entry.reason}). Remove it from the accepted-breaks file.`,
    );
  }
  const version = owner.packageJson.version;
  const nextVersion = plan.releases.find((release) => release.name === owner.packageJson.name)?.newVersion;
  notes.push(
    `Release: ${label} is at ${version}; ${nextVersion && nextVersion !== version ? `pending changesets take it to ${nextVersion}` : "no pending changeset releases it"}.`,
  );
  return {
    pass: unacknowledged === 0 || acknowledging.length > 0,
    errors: errors.length,
    warnings: report.counts.warning,
    acknowledgedBy: unacknowledged > 0 ? acknowledging : [],
    accepted,
    staleAccepts,
    unacknowledged,
    accidentalMajor: unacknowledged === 0 ? acknowledging : [],
    pendingMajors,
    group: { label, packages, version, nextVersion },
    notes,
  };
}
