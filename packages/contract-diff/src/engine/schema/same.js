// Whether two nodes need comparing at all: the same JSON text, and every $ref below them naming the same
// text in both documents. Texts and $ref verdicts are remembered in the differ's context.
import { isObject, key, resolve } from "../schema-view.js";

/** @typedef {import("./scope.js").DifferContext} DifferContext */

/**
 * True when two nodes read the same and every $ref below them names the same text in both documents.
 * @param {DifferContext} context
 */
export function same(
  context,
  /** @type {import("../json.js").Json} */ b,
  /** @type {import("../json.js").Json} */ h,
) {
  return text(context, b) === text(context, h) && reachedSame(context, b);
}

/**
 * JSON text of a node, computed once per node object (documents are not changed while they are compared).
 * @param {DifferContext} context
 */
function text(context, /** @type {import("../json.js").Json} */ node) {
  if (!isObject(node) && !Array.isArray(node)) return key(node);
  let value = context.texts.get(node);
  if (value === undefined) {
    value = key(node);
    context.texts.set(node, value);
  }
  return value;
}

/**
 * True when every $ref below `node` names the same text in both documents, transitively.
 * @param {DifferContext} context
 * @returns {boolean}
 */
function reachedSame(context, /** @type {import("../json.js").Json} */ node) {
  if (Array.isArray(node)) return node.every((item) => reachedSame(context, item));
  if (!isObject(node)) return true;
  if (typeof node.$ref === "string") return sameRef(context, node.$ref);
  return Object.values(node).every((value) => reachedSame(context, value));
}

/** @param {DifferContext} context @param {string} ref */
function sameRef(context, ref) {
  const known = context.sameRefs.get(ref);
  if (known !== undefined) return known;
  // Told by the files' texts, without parsing what the ref reaches.
  if (context.unchanged(ref, ref)) {
    context.sameRefs.set(ref, true);
    return true;
  }
  context.sameRefs.set(ref, true); // a cycle back to this ref adds nothing new
  const b = resolve(context.base, { $ref: ref }, "#").node;
  const h = resolve(context.head, { $ref: ref }, "#").node;
  const verdict = same(context, b, h) === true;
  context.sameRefs.set(ref, verdict);
  return verdict;
}
