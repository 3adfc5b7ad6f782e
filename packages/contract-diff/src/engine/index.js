// The differ's entry point: pairs the operations of two loaded contracts, turns every difference into a
// change event (walk-operations.js, walk-schema.js), lets the rules (src/rules) name and grade each event,
// and folds the events that one change to a shared schema causes in many operations into one finding that
// lists the operations it reaches.
import { rulesOn } from "../rules/load.js";
import { attachEvidence } from "./evidence.js";
import { walkOperations } from "./walk-operations.js";

/**
 * The package's types, declared once in ../index.d.ts:
 * @typedef {import("../index.js").Level} Level
 * @typedef {import("../index.js").Finding} Finding
 * @typedef {import("../index.js").LoadedSpec} LoadedSpec
 * @typedef {import("../index.js").Report} Report
 */

/** @type {readonly Level[]} */
export const LEVELS = Object.freeze(["error", "warning", "info"]);
const UNSTABLE = new Set(["draft", "alpha", "beta"]);

/** A plain document as a loaded spec (no source lines). */
export const fromDocument = (/** @type {import("./json.js").Json} */ document, label = "document") => ({
  document,
  label,
  origin: () => undefined,
});

/**
 * @param {LoadedSpec} base
 * @param {LoadedSpec} head
 * @param {{ now?: Date, deprecationDays?: number, evidence?: boolean }} [options] `evidence: false` skips
 *   validating the operations' examples across the change (engine/evidence.js)
 * @returns {Report}
 */
export function diffSpecs(base, head, options = {}) {
  const policy = { now: options.now ?? new Date(), deprecationDays: options.deprecationDays ?? 0 };
  parseTouched(base, head);
  const events = walkOperations(base.document, head.document, unchangedOf(base, head));
  const findings = settle(group(events, base, head, policy));
  if (options.evidence !== false) attachEvidence(findings, base.document, head.document);
  const counts = /** @type {Record<Level, number>} */ (
    Object.fromEntries(LEVELS.map((level) => [level, findings.filter((f) => f.level === level).length]))
  );
  const names = (/** @type {import("./json.js").Json} */ doc) => Object.keys(doc.components?.schemas ?? {});
  const baseNames = names(base.document);
  const headNames = names(head.document);
  return {
    base: base.label,
    head: head.label,
    findings,
    counts,
    schemas: {
      added: headNames.filter((n) => !baseNames.includes(n)),
      removed: baseNames.filter((n) => !headNames.includes(n)),
    },
  };
}

/**
 * Parses every file whose text differs between the two sides (or is on one side only), so a file the change
 * breaks is refused whether or not an operation reaches it; files the change leaves alone are parsed only if
 * the differ reads them.
 * @param {LoadedSpec} base @param {LoadedSpec} head
 */
function parseTouched(base, head) {
  if (!base.sources || !head.sources) return;
  const b = base.sources.hashes;
  const h = head.sources.hashes;
  for (const [key, hash] of b) if (h.get(key) !== hash) base.sources.parse(key);
  for (const [key, hash] of h) if (b.get(key) !== hash) head.sources.parse(key);
}

/**
 * Whether the nodes at two pointers are equal with everything they reach, told by the files' texts alone
 * (without parsing them): the same pointer, and the same token for what it reaches on both sides.
 * @param {LoadedSpec} base @param {LoadedSpec} head
 * @returns {import("./schema/scope.js").Unchanged}
 */
function unchangedOf(base, head) {
  const b = base.sources;
  const h = head.sources;
  if (!b || !h) return () => false;
  return (bp, hp) => {
    if (bp !== hp) return false;
    const token = b.reach(bp);
    return token !== undefined && token === h.reach(hp);
  };
}

/**
 * @typedef {Finding & { stable: boolean, removedName?: string }} Group
 *   a finding while events are folded into it: whether a stable operation reaches it, and the name of a
 *   removed property (for its place in a shared schema)
 */

/**
 * Every rule that fires on an event, folded by rule, side, pointer and message: one finding per change,
 * listing the operations it reaches.
 * @param {import("./json.js").Json[]} events @param {LoadedSpec} base @param {LoadedSpec} head
 * @param {{ now: Date, deprecationDays: number }} policy
 * @returns {Map<string, Group>}
 */
function group(events, base, head, policy) {
  /** @type {Map<string, Group>} */
  const groups = new Map();
  for (const event of events) {
    for (const rule of rulesOn(event.kind)) {
      if (!rule.when(event, policy)) continue;
      const message = rule.message(event, policy);
      const id = `${rule.id}|${event.side}|${event.pointer}|${message}`;
      let finding = groups.get(id);
      if (!finding) {
        finding = newFinding(rule, event, message, event.side === "base" ? base : head, base);
        groups.set(id, finding);
      }
      const op = event.operation;
      if (
        !finding.operations.some(
          (o) => o.method === op.method && o.path === op.path && o.where === event.where,
        )
      ) {
        finding.operations.push({
          operationId: op.operationId,
          method: op.method,
          path: op.path,
          where: event.where,
        });
      }
      if (!UNSTABLE.has(op.stability) || event.kind === "operation-stability") finding.stable = true;
    }
  }
  return groups;
}

/**
 * The finding a rule makes of the first event that fires it, located in `spec` (the side the event is on).
 * @param {LoadedSpec} spec
 * @returns {Group}
 */
function newFinding(
  /** @type {import("../index.js").Rule} */ rule,
  /** @type {import("../index.js").ChangeEvent} */ event,
  /** @type {string} */ message,
  spec,
  /** @type {LoadedSpec} */ base,
) {
  const source = spec.origin(event.pointer);
  const muted = mutedBecause(event);
  /** @type {Group} */
  const finding = {
    removedName: event.kind === "property" && event.change === "removed" ? event.name : undefined,
    rule: rule.id,
    level: muted ? "info" : rule.level,
    message,
    where: event.where,
    location: "",
    side: event.side,
    pointer: event.pointer,
    ...(source ? { source } : {}),
    ...removedAt(event, base),
    ...(muted ? { note: muted } : {}),
    operations: [],
    stable: false,
  };
  finding.location = source
    ? `${source.file}#${(source.pointer ?? event.pointer).replace(/^#/, "")}`
    : locationOf(event);
  return finding;
}

/**
 * The findings in their final form, most severe first: one that only unstable operations reach is info, and
 * one that many operations reach is placed in the shared schema.
 * @param {Map<string, Group>} groups
 * @returns {Finding[]}
 */
function settle(groups) {
  /** @type {Finding[]} */
  const findings = [];
  for (const { stable, removedName, ...finding } of groups.values()) {
    if (!stable && finding.level !== "info") {
      finding.level = "info";
      finding.note = "only operations marked draft, alpha or beta (x-stability-level) are reached";
    }
    if (finding.operations.length > 1)
      finding.where = `${schemaWhere(finding)}${removedName ? `.${removedName}` : ""}`;
    findings.push(finding);
  }
  findings.sort(
    (a, b) =>
      LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) ||
      a.location.localeCompare(b.location) ||
      a.rule.localeCompare(b.rule),
  );
  return findings;
}

/**
 * Where a removed node stood in the base (`removedAt`), for outputs that can point at a removed line (a
 * pull request review's base side); the finding's own `source` stays on the head, where annotations go.
 */
function removedAt(/** @type {import("../index.js").ChangeEvent} */ event, /** @type {LoadedSpec} */ base) {
  if (event.removedFrom === undefined || event.side === "base") return {};
  const at = base.origin(event.removedFrom);
  return at ? { removedAt: at } : {};
}

/** Why an event cannot affect anyone: a read-only value in a request, a write-only value in a response. */
function mutedBecause(/** @type {import("../index.js").ChangeEvent} */ event) {
  if (event.direction === "request" && event.flags?.readOnly) return "read-only: callers do not send it";
  if (event.direction === "response" && event.flags?.writeOnly) return "write-only: readers never receive it";
  if (event.xml) return "XML body: its text and elements read the same whatever JSON type the schema names";
  return undefined;
}

function locationOf(/** @type {import("../index.js").ChangeEvent} */ event) {
  const op = event.operation;
  const head = op.method ? `${op.method.toUpperCase()} ${op.path}` : op.operationId;
  return `${head}${event.where ? ` ${event.where}` : ""}`;
}

/** The place of a change to a shared schema: its file (or component name) and the path inside it. */
function schemaWhere(/** @type {Finding} */ finding) {
  const pointer = finding.source?.pointer ?? finding.pointer;
  const file = finding.source
    ? (finding.source.file.split("/").pop() ?? "").replace(/\.(ya?ml|json)$/, "")
    : "";
  const inner = pointer
    .replace(/^#/, "")
    .replace(/^\/components\/schemas\/([^/]+)/, (/** @type {string} */ _, /** @type {string} */ name) =>
      file ? "" : name,
    )
    .replace(/\/allOf\/\d+/g, "")
    .replace(/\/properties\/([^/]+)/g, ".$1")
    .replace(/\/properties$/, "")
    .replace(/\/items/g, "[]")
    .replace(/\/additionalProperties/g, "{*}")
    .replace(/~1/g, "/")
    .replace(/~0/g, "~");
  return `${file}${inner}` || (finding.operations[0]?.where ?? "");
}
