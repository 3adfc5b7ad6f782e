// The copy of the bundled contract whose text the docs page shows (the docs generator, generate.mjs,
// renders the introduction and the operations' descriptions from it). The published bundle keeps its security requirements as they are, machine-readable for
// the types and the client; this copy only changes what a reader sees:
//
// - each operation's scopes as one line ("Scopes: `tag:read`, `tag:write` or `tag:all`") at the top of its
//   description, derived from its security requirement or, where the scopes depend on a record's type, from
//   its `x-scopes-by-type`, instead of one rendered "bearer (Required scopes ...) or" line per alternative;
// - an introduction to the code samples' variables;
// - a changelog of the contract: each released version's contract changes, from
//   packages/spec/CONTRACT-CHANGES.md (written by scripts/release/contract-changes.mjs when a version is made).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { operationsOf } from "@workapi/spec";

/** `a`, `a or b`, `a, b or c`. */
function alternatives(items) {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

const code = (scope) => `\`${scope}\``;

/** The scopes an operation's security requirement lets a token call it with, as one line. */
export function scopeLine(operation, where) {
  const security = operation.security;
  if (!Array.isArray(security)) return undefined;
  if (security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0)) {
    return "No token needed.";
  }
  const options = security.map((requirement) => Object.values(requirement).flat());
  const byType = operation["x-scopes-by-type"];
  if (byType) {
    // The line by type must say the same as the requirement: the same scopes, no more, no fewer.
    const listed = new Set(Object.values(byType.scopes ?? {}).flat());
    const required = new Set(options.flat());
    const same = listed.size === required.size && [...listed].every((scope) => required.has(scope));
    if (!same || options.some((option) => option.length !== 1)) {
      throw new Error(`${where}: x-scopes-by-type and the security requirement list different scopes`);
    }
    return scopesByType(operation, byType);
  }
  if (options.some((option) => option.length === 0)) return "Any valid token.";
  return `Scopes: ${alternatives(options.map((option) => option.map(code).join(" and ")))}`;
}

function scopesByType(operation, byType) {
  const resource = operation["x-interface-name"].split(".")[0].replace(/s$/, "");
  const noun = byType.source === "parent" ? "the type of the record it belongs to" : `${resource} type`;
  const entries = Object.entries(byType.scopes);
  // Most operations follow one pattern for every type (`<type>:read`, `<type>:write`...): say it once.
  const pattern = (type, scopes) => scopes.map((scope) => scope.replace(`${type}:`, "<type>:")).join("\n");
  const [firstType, firstScopes] = entries[0];
  const shared = pattern(firstType, firstScopes);
  if (
    entries.every(
      ([type, scopes]) => pattern(type, scopes) === shared && scopes.every((s) => s.startsWith(`${type}:`)),
    )
  ) {
    const types = alternatives(entries.map(([type]) => code(type)));
    return `Scopes by ${noun}: ${alternatives(shared.split("\n").map(code))}, where \`<type>\` is ${types}`;
  }
  return `Scopes by ${noun}: ${entries.map(([type, scopes]) => `${code(type)}: ${alternatives(scopes.map(code))}`).join("; ")}`;
}

/** Headings inside a section become bold lines, so that they do not enter the page's table of contents. */
const demote = (markdown) => markdown.replace(/^#{3,6} +(.*)$/gm, "**$1**");

/**
 * The page's changelog: the contract changes of every released version, newest first, as the release wrote them
 * into packages/spec/CONTRACT-CHANGES.md. Changes not released yet are reviewed in each pull request.
 */
export function changelog(root) {
  const lines = [
    "## Changelog",
    "",
    "What changed in the contract, release by release: the contract review's findings between one released",
    "version and the next, grouped by operation, breaking changes first. All `@workapi/*` packages version together.",
    "",
  ];
  const file = join(root, "packages", "spec", "CONTRACT-CHANGES.md");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const sections = text.split(/^(?=## )/m).filter((part) => part.startsWith("## "));
  if (sections.length === 0) lines.push("None yet: no version has been released.", "");
  for (const section of sections) {
    const [heading, ...rest] = section.trimEnd().split("\n");
    lines.push(`### ${heading.slice(3)}`, "", demote(rest.join("\n")).trim(), "");
  }
  return lines.join("\n");
}

function samplesIntro(variables) {
  return [
    "## Code samples",
    "",
    "Every operation shows a `curl` command and a TypeScript call with `@workapi/client`. The curl commands",
    "run as shown once these shell variables are set; the record ids in them are variables too, because an",
    "example id may name no record on your server (a sample that names two records of one kind calls the second",
    "`$<NAME>_2`). On a fresh server loaded with `pnpm seed`, the examples' ids (`TAG-5`, `ISS-1`...) name",
    "demo records: every sample runs once as shown, each variable set to the id the TypeScript sample names:",
    "",
    "| variable | what it holds |",
    "|---|---|",
    ...variables.map(({ name, meaning }) => `| \`${name}\` | ${meaning} |`),
    "",
  ].join("\n");
}

/** The document the docs page shows: a copy of the bundle `doc` with the changes listed above. */
export function docsDocument(doc, { root, variables }) {
  const copy = structuredClone(doc);
  copy.info.description = [copy.info.description.trimEnd(), samplesIntro(variables), changelog(root)].join(
    "\n\n",
  );
  for (const { path, method, operation } of operationsOf(copy)) {
    const line = scopeLine(operation, `${method.toUpperCase()} ${path} (${operation.operationId})`);
    if (line === undefined) continue;
    operation.description = `${line}\n\n${operation.description ?? ""}`.trimEnd();
    // The document-wide requirement (a bearer token) still shows; the scopes are in the line above.
    if (operation.security.length > 0) delete operation.security;
  }
  return copy;
}
