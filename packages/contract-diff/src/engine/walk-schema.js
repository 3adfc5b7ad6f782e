// Compares two schemas and reports each difference as a change event: what changed (`kind`, `change`), the
// values before and after, the direction the data flows (`request`: callers send it, `response`: callers
// read it), and where it sits (`pointer` in the head document, `path` below the schema compared). Rules
// (src/rules) decide what each event means; this file and the modules in schema/ only observe.
//
// A shared schema is compared once per pair of locations, direction and flags; the events are kept and
// handed to every operation that reaches it, so the work and the findings are per schema, not per operation.
import { compareAnnotations } from "./schema/annotations.js";
import { compareProperties } from "./schema/properties.js";
import { same } from "./schema/same.js";
import { compareStrings } from "./schema/strings.js";
import { compareSubschemas } from "./schema/subschemas.js";
import { compareTypes } from "./schema/types.js";
import { compareAllOf, compareUnions } from "./schema/unions.js";
import { compareBounds, compareValues } from "./schema/values-bounds.js";
import { isObject, resolve, view } from "./schema-view.js";

const MAX_DEPTH = 64;

/**
 * @typedef {import("./schema/scope.js").Direction} Direction
 * @typedef {import("./schema/scope.js").Flags} Flags
 * @typedef {import("./schema/scope.js").SchemaEvent} SchemaEvent
 * @typedef {import("./schema/scope.js").DifferContext} DifferContext
 * @typedef {import("./schema/scope.js").SchemaScope} SchemaScope
 */

/**
 * @param {Record<string, import("./json.js").Json>} base @param {Record<string, import("./json.js").Json>} head
 * @param {import("./schema/scope.js").Unchanged} [unchanged]
 */
export function schemaDiffer(base, head, unchanged = () => false) {
  /** @type {DifferContext} */
  const context = { base, head, memo: new Map(), texts: new WeakMap(), sameRefs: new Map(), unchanged };
  return {
    /**
     * @param {import("./json.js").Json} b base schema @param {string} bp its pointer @param {import("./json.js").Json} h head schema @param {string} hp
     * @param {Direction} direction @param {Flags} [flags]
     * @returns {SchemaEvent[]}
     */
    compare: (b, bp, h, hp, direction, flags = {}) => compare(context, b, bp, h, hp, direction, flags, []),
    /** True when two nodes read the same and every $ref below them names the same text in both documents. */
    same: (/** @type {import("./json.js").Json} */ b, /** @type {import("./json.js").Json} */ h) =>
      same(context, b, h),
  };
}

/**
 * @param {DifferContext} context
 * @param {import("./json.js").Json} b base schema @param {string} bp its pointer @param {import("./json.js").Json} h head schema @param {string} hp
 * @param {Direction} direction @param {Flags} flags @param {string[]} stack
 * @returns {SchemaEvent[]}
 */
function compare(context, b, bp, h, hp, direction, flags, stack) {
  // The same reference on both sides to files whose texts are the same: nothing to compare, nothing to parse.
  if (refOnly(b) && refOnly(h) && b.$ref === h.$ref && context.unchanged(b.$ref, h.$ref)) return [];
  const rb = resolve(context.base, b, bp);
  const rh = resolve(context.head, h, hp);
  const id = `${rb.pointer}|${rh.pointer}|${direction}|${flags.readOnly ? 1 : 0}${flags.writeOnly ? 1 : 0}${flags.parameter ? 1 : 0}${flags.header ? 1 : 0}${flags.text ? 1 : 0}`;
  const known = context.memo.get(id);
  if (known) return known;
  if (stack.includes(id) || stack.length > MAX_DEPTH) return [];
  // Identical text at pointers that are both unchanged all the way down: nothing to compare.
  if (same(context, rb.node, rh.node)) {
    context.memo.set(id, []);
    return [];
  }
  /** @type {SchemaEvent[]} */
  const events = [];
  walk(context, rb.node, rb.pointer, rh.node, rh.pointer, direction, flags, [...stack, id], events);
  context.memo.set(id, events);
  return events;
}

/** A node that is a `$ref` and nothing else. @param {unknown} node @returns {node is { $ref: string }} */
const refOnly = (node) => isObject(node) && typeof node.$ref === "string" && Object.keys(node).length === 1;

/**
 * Compares one resolved pair of schemas, keyword family by keyword family, into `events`.
 * @param {DifferContext} context @param {Direction} direction @param {Flags} flags @param {string[]} stack
 * @param {SchemaEvent[]} events
 */
function walk(
  context,
  /** @type {import("./json.js").Json} */ bNode,
  /** @type {string} */ bp,
  /** @type {import("./json.js").Json} */ hNode,
  /** @type {string} */ hp,
  direction,
  flags,
  stack,
  events,
) {
  /** @type {SchemaScope} */
  const scope = {
    base: context.base,
    head: context.head,
    direction,
    flags,
    emit: (kind, fields = {}) =>
      events.push({ kind, direction, path: "", pointer: hp, side: "head", flags, ...fields }),
    nested: (b, bPtr, h, hPtr, segment, childFlags = flags) => {
      for (const event of compare(context, b, bPtr, h, hPtr, direction, childFlags, stack)) {
        events.push({ ...event, path: `${segment}${event.path}` });
      }
    },
    compare: (b, bPtr, h, hPtr) => compare(context, b, bPtr, h, hPtr, direction, flags, stack),
  };
  const emit = scope.emit;
  const bv = view(context.base, bNode, bp);
  const hv = view(context.head, hNode, hp);
  const b = bv.own;
  const h = hv.own;

  compareUnions(scope, bp, hp, b, h);
  compareAllOf(scope, bNode, hNode);
  compareTypes(b, h, emit, flags.text === true);
  compareValues(b, h, emit);
  compareBounds(b, h, emit);
  compareStrings(b, h, emit);
  compareAnnotations(b, h, emit);
  compareProperties(scope, bv, hv);
  compareSubschemas(scope, b, bv.pointer, h, hv.pointer);
}
