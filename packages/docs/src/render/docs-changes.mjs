// What changed, operation by operation, for the docs page: the version each operation was added in and, where
// its contract changed since, each version with one-line summaries. Two sources, both the contract's own
// changelog:
// - released versions: packages/spec/CONTRACT-CHANGES.md, written by scripts/release/contract-changes.mjs when a
//   version is made (the contract review's findings, grouped under "#### `METHOD /path` (operationId)");
// - changes not released yet: the pending changesets (.changeset/*.md) that bump @workapi/spec, whose lines
//   name operations (`slas.update`); they become the next version's entries when it is made, so the page
//   says, before the release, what that release will change.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const LEVELS = ["patch", "minor", "major"];

/** `1.2.3` raised by `level` (changesets' rule, 0.x versions included). */
export function nextVersion(version, level) {
  const [major, minor, patch] = version.split(".").map(Number);
  if (level === "major") return `${major + 1}.0.0`;
  if (level === "minor") return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/**
 * The released versions' entries: Map operationId -> [{ version, added, lines }], newest version first, as
 * CONTRACT-CHANGES.md lists them. `added` is true where the operation first appeared.
 */
export function releasedChanges(text) {
  const byOperation = new Map();
  const sections = text.split(/^(?=## )/m).filter((part) => part.startsWith("## "));
  for (const section of sections) {
    const version = section.slice(3, section.indexOf("\n")).trim();
    for (const block of section.split(/^(?=#### )/m).slice(1)) {
      const id = block.slice(0, block.indexOf("\n")).match(/\(([^()]+)\)\s*$/)?.[1];
      if (!id) continue;
      const lines = block
        .split("\n")
        .filter((line) => line.startsWith("- "))
        .map((line) => line.slice(2).replace(/^\*\*(.*)\*\*$/, "$1"));
      const added = lines.some((line) => line.includes("(operation-added)"));
      const entry = { version, added, lines: lines.filter((line) => !line.includes("(operation-added)")) };
      byOperation.set(id, [...(byOperation.get(id) ?? []), entry]);
    }
  }
  return byOperation;
}

/** A changeset's levels by package and its text, from its front matter and body. */
export function parseChangeset(text) {
  const match = text.match(/^---\n([\s\S]*?)\n---\n?([\s\S]*)$/);
  if (!match) return undefined;
  const levels = {};
  for (const line of match[1].split("\n")) {
    const entry = line.match(/^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major)\s*$/);
    if (entry) levels[entry[1]] = entry[2];
  }
  return { levels, body: match[2] };
}

/** A changeset's body as blocks: each list item, each paragraph, on one line. */
function blocks(body) {
  const out = [];
  for (const paragraph of body.split(/\n\s*\n/)) {
    const items = paragraph.split(/\n(?=\s*- )/);
    for (const item of items) {
      const line = item
        .replace(/^\s*- /, "")
        .replace(/\s+/g, " ")
        .trim();
      if (line) out.push(line);
    }
  }
  return out;
}

/** The first sentence of a block: one line for the page, its Markdown kept. */
export function oneLine(block) {
  const cut = block.search(/(?<=[^.\s]{2})(\. |; )/);
  const line = cut > 0 ? block.slice(0, cut) : block.replace(/\.$/, "");
  return line.length > 240 ? `${line.slice(0, 237).trimEnd()}…` : line;
}

/**
 * The pending changesets that bump @workapi/spec: the next version's number and, per operation name, the
 * one-line summaries that name it.
 */
export function pendingChanges(root, version, names) {
  const dir = join(root, ".changeset");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "README.md") : [];
  let level = -1;
  const byName = new Map();
  for (const file of files.sort()) {
    const changeset = parseChangeset(readFileSync(join(dir, file), "utf8"));
    const specLevel = changeset?.levels["@workapi/spec"];
    if (!specLevel) continue;
    level = Math.max(level, LEVELS.indexOf(specLevel));
    for (const block of blocks(changeset.body)) {
      // A line says something of the operations it names itself: a bare list of names says nothing.
      const line = oneLine(block);
      if (
        line
          .replace(/`[^`]*`/g, " ")
          .split(/\s+/)
          .filter((word) => /\w/.test(word)).length < 4
      )
        continue;
      for (const [, name] of line.matchAll(/`([a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)+)`/g)) {
        if (!names.has(name)) continue;
        const lines = byName.get(name) ?? [];
        if (!lines.includes(line)) lines.push(line);
        byName.set(name, lines);
      }
    }
  }
  return { next: level < 0 ? undefined : nextVersion(version, LEVELS[level]), byName };
}

/**
 * Every operation's history for the page: Map operationId -> { added, changes: [{ version, pending, lines }],
 * deprecated, sunset }. `added` is the version the operation first appears in, with `pending` when that
 * version is not released yet.
 */
export function operationHistory(root, doc, operations) {
  const file = join(root, "packages", "spec", "CONTRACT-CHANGES.md");
  const released = releasedChanges(existsSync(file) ? readFileSync(file, "utf8") : "");
  const names = new Set(operations.map(({ raw }) => raw["x-interface-name"]));
  const pending = pendingChanges(root, doc.info.version, names);
  const history = new Map();
  for (const { raw } of operations) {
    const entries = released.get(raw.operationId) ?? [];
    const addedAt = entries.find((entry) => entry.added);
    const changes = entries
      .filter((entry) => entry.lines.length > 0)
      .map(({ version, lines }) => ({ version, pending: false, lines }));
    const lines = pending.byName.get(raw["x-interface-name"]) ?? [];
    if (lines.length && pending.next && addedAt) {
      changes.unshift({ version: pending.next, pending: true, lines });
    }
    const added = addedAt
      ? { version: addedAt.version, pending: false }
      : { version: pending.next ?? nextVersion(doc.info.version, "patch"), pending: true };
    // An operation not released yet has no released contract to differ from: its pending lines say what is new.
    if (!addedAt && lines.length) changes.unshift({ version: added.version, pending: true, lines });
    history.set(raw.operationId, {
      added,
      changes,
      deprecated: raw.deprecated === true,
      sunset: raw["x-sunset"],
    });
  }
  return history;
}
