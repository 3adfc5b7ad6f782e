// The release gate: an error-level contract change passes only when a pending changeset declares a major
// bump of the fixed group that publishes the contract. Changesets are read with the changesets libraries
// themselves (the same code `changeset version` runs), so "pending" and the next version mean what they mean
// to the release.
import { readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { read as readConfig } from "@changesets/config";
import getReleasePlan from "@changesets/get-release-plan";
import { getPackages } from "@manypkg/get-packages";

/**
 * @typedef {{ label: string, packages: string[], version: string, nextVersion: string | undefined }} GateGroup
 * @typedef {{ pass: boolean, errors: number, warnings: number, acknowledgedBy: string[],
 *   accidentalMajor: string[], group: GateGroup, notes: string[] }} GateResult
 */

/**
 * The workspace package whose directory holds `specFile`, and the fixed group it belongs to (itself alone when
 * it is in no group). `label` spells the group as .changeset/config.json does (`@workapi/*`).
 */
function groupOf(root, config, packages, specFile) {
  const owner = packages
    .filter((pkg) => resolve(specFile).startsWith(`${resolve(pkg.dir)}${sep}`))
    .sort((a, b) => b.dir.length - a.dir.length)[0];
  if (!owner) {
    throw new Error(
      `no workspace package holds ${relative(root, specFile)}: the gate cannot tell which release it ships in`,
    );
  }
  const name = owner.packageJson.name;
  const index = config.fixed.findIndex((group) => group.includes(name));
  if (index === -1) return { label: `\`${name}\``, packages: [name], owner };
  const raw = JSON.parse(readFileSync(join(root, ".changeset", "config.json"), "utf8"));
  const patterns = raw.fixed?.[index];
  const label = Array.isArray(patterns)
    ? `the fixed group ${patterns.map((p) => `\`${p}\``).join(", ")}`
    : `\`${name}\``;
  return { label, packages: config.fixed[index], owner };
}

/**
 * Decides the gate for a contract diff. Every changeset file present in `<root>/.changeset` (README.md aside)
 * is pending: `changeset version` deletes the files it releases.
 * @param {import("./diff.js").ContractDiff} diff
 * @param {{ root: string, specFile: string }} where the repository root and the bundled contract's path
 * @returns {Promise<GateResult>}
 */
export async function evaluateGate(diff, { root, specFile }) {
  const workspace = await getPackages(root);
  const config = await readConfig(root, workspace);
  const { label, packages, owner } = groupOf(root, config, workspace.packages, specFile);
  const plan = await getReleasePlan(root, undefined, config);
  const declaresMajor = plan.changesets.filter((changeset) =>
    changeset.releases.some((release) => release.type === "major" && packages.includes(release.name)),
  );
  const files = declaresMajor.map((changeset) => `.changeset/${changeset.id}.md`);
  const version = owner.packageJson.version;
  const nextVersion = plan.releases.find((release) => release.name === owner.packageJson.name)?.newVersion;
  const errors = diff.counts.error;
  const notes = [];
  if (errors === 0 && files.length > 0) {
    notes.push(
      `Warning: ${files.map((f) => `\`${f}\``).join(", ")} declare${files.length === 1 ? "s" : ""} a \`major\` bump ` +
        "but the contract has no error-level change: an accidental major? Keep it only if something else breaks.",
    );
  }
  const [major, minor] = version.split(".").map(Number);
  const next =
    nextVersion && nextVersion !== version
      ? `pending changesets take it to ${nextVersion}`
      : "no pending changeset releases it";
  notes.push(`Release: ${label} is at ${version}; ${next}.`);
  if (major === 0) {
    // changesets bumps with semver.inc as written: no special case for 0.x (assemble-release-plan's incrementVersion).
    notes.push(
      `While at 0.x: changesets applies the bump as written, so a \`major\` changeset takes ${version} to 1.0.0 ` +
        `and a \`minor\` one to 0.${minor + 1}.0. Under semver's caret ranges a 0.x minor is already breaking ` +
        `(^${version} does not accept 0.${minor + 1}.0), but only a \`major\` changeset acknowledges an error here.`,
    );
  }
  return {
    pass: errors === 0 || files.length > 0,
    errors,
    warnings: diff.counts.warning,
    acknowledgedBy: errors > 0 ? files : [],
    accidentalMajor: errors === 0 ? files : [],
    group: { label, packages, version, nextVersion },
    notes,
  };
}
