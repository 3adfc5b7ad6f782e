#!/usr/bin/env node
// Writes the contract changes of the version being released into packages/spec/CONTRACT-CHANGES.md, newest
// first: the contract review's changelog between the previous release's tag (`@workapi/spec@<version>`) and
// the working tree. `pnpm version-packages` runs it after `changeset version` has set the new version; the docs
// page's changelog is built from this file, so readers see what changed in the contract, not in the packages'
// internals. Running it again for the same version replaces that version's section.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
// Imported by path: the repository root does not depend on the workspace packages.
import { changelog, diffSpecs, fromDocument, loadSpec } from "@workapi/contract-diff";

const HEADER = `# Contract changes

What changed in the contract, release by release (written by \`scripts/release/contract-changes.mjs\` when a
version is made). Breaking changes come first under each operation.
`;

/** The released versions' tags of `pkg`, newest first. */
function releaseTags(root, pkg) {
  const out = execFileSync("git", ["tag", "--list", `${pkg}@*`, "--sort=-v:refname"], {
    cwd: root,
    encoding: "utf8",
  });
  return out.split("\n").filter(Boolean);
}

/** The file's text with `section` for `version` in place of an older one, or first after the header. */
export function withSection(text, version, section) {
  const body = text.startsWith("# Contract changes")
    ? text.slice(text.indexOf("\n## ") + 1 || text.length)
    : "";
  const sections = body.split(/^(?=## )/m).filter((part) => part.startsWith("## "));
  const others = sections.filter((part) => !part.startsWith(`## ${version}\n`));
  return [HEADER, section, ...others]
    .map((part) => part.trimEnd())
    .join("\n\n")
    .concat("\n");
}

/**
 * @param {{ root: string, spec?: string, pkg?: string, output?: string }} options
 * @returns {Promise<{ version: string, previous: string | undefined, file: string }>}
 */
export async function writeContractChanges({
  root,
  spec = "spec/openapi.yaml",
  pkg = "@workapi/spec",
  output = "packages/spec/CONTRACT-CHANGES.md",
}) {
  const version = JSON.parse(readFileSync(join(root, "packages/spec/package.json"), "utf8")).version;
  const previousTag = releaseTags(root, pkg).find((tag) => tag !== `${pkg}@${version}`);
  const head = await loadSpec(resolve(root, spec), { root });
  const base = previousTag
    ? await loadSpec(previousTag, { root, spec })
    : fromDocument(
        { openapi: head.document.openapi, info: head.document.info, paths: {} },
        "nothing released",
      );
  const previous = previousTag?.slice(pkg.length + 1);
  const report = diffSpecs(base, head);
  const notes = changelog(report, { title: previous ? `Since ${previous}` : "First release" });
  const file = join(root, output);
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  writeFileSync(file, withSection(text, version, `## ${version}\n\n${notes}`));
  return { version, previous, file };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
  const { version, previous, file } = await writeContractChanges({ root });
  console.log(`contract changes of ${version} (since ${previous ?? "nothing released"}) written to ${file}`);
}
