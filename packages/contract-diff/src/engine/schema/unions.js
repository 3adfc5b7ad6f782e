// Unions and compositions: oneOf/anyOf variants matched by what they name, allOf members added or removed.
import { annotationOnly, child, isObject, resolve } from "../schema-view.js";

/** @typedef {import("./scope.js").SchemaScope} SchemaScope */

/** The name a variant is matched by: what its $ref names, else its title, else its position. */
const variantLabel = (/** @type {import("../json.js").Json} */ variant, /** @type {number} */ index) => {
  if (isObject(variant) && typeof variant.$ref === "string") return variant.$ref.split("/").pop();
  if (isObject(variant) && typeof variant.title === "string") return variant.title;
  return `#${index + 1}`;
};

/** @param {SchemaScope} scope @param {string} bp @param {string} hp */
export function compareUnions(
  scope,
  bp,
  hp,
  /** @type {import("../json.js").Json} */ b,
  /** @type {import("../json.js").Json} */ h,
) {
  const { emit, nested } = scope;
  for (const keyword of ["oneOf", "anyOf"]) {
    const bl = Array.isArray(b[keyword]) ? b[keyword] : undefined;
    const hl = Array.isArray(h[keyword]) ? h[keyword] : undefined;
    if (!bl && !hl) continue;
    if (!bl) {
      // A variant that takes exactly what the schema took before keeps every old value valid.
      const keepsOld =
        scope.direction === "request" &&
        h[keyword].some(
          (/** @type {import("../json.js").Json} */ variant, /** @type {number} */ index) =>
            scope.compare(b, bp, variant, child(hp, keyword, index)).length === 0,
        );
      emit("union", { change: "wrapped", keyword, keepsOld });
      continue;
    }
    if (!hl) {
      emit("union", { change: "unwrapped", keyword });
      continue;
    }
    const before = new Map(bl.map((v, i) => [variantLabel(v, i), i]));
    const after = new Map(hl.map((v, i) => [variantLabel(v, i), i]));
    for (const [name, index] of after) {
      if (!before.has(name)) emit("variant", { change: "added", keyword, name });
      else {
        const i = /** @type {number} */ (before.get(name));
        nested(bl[i], child(bp, keyword, i), hl[index], child(hp, keyword, index), `(${name})`);
      }
    }
    for (const name of before.keys())
      if (!after.has(name)) emit("variant", { change: "removed", keyword, name });
  }
}

/**
 * allOf members: a `$ref` member is matched by what it names; inline members are matched in order (their
 * contents are compared through the merged view), so only a change in their number is a member added or
 * removed.
 * @param {SchemaScope} scope
 */
export function compareAllOf(
  scope,
  /** @type {import("../json.js").Json} */ bNode,
  /** @type {import("../json.js").Json} */ hNode,
) {
  const { base, head, emit } = scope;
  const members = (
    /** @type {import("../json.js").Json} */ doc,
    /** @type {import("../json.js").Json} */ node,
  ) => {
    const own = resolve(doc, node, "#").node;
    return Array.isArray(own.allOf) ? own.allOf : [];
  };
  const refOf = (/** @type {import("../json.js").Json} */ member) =>
    isObject(member) && typeof member.$ref === "string" ? member.$ref : undefined;
  const bl = members(base, bNode);
  const hl = members(head, hNode);
  const bRefs = new Set(bl.map(refOf).filter(Boolean));
  const hRefs = new Set(hl.map(refOf).filter(Boolean));
  const only = (
    /** @type {import("../json.js").Json} */ doc,
    /** @type {import("../json.js").Json} */ member,
  ) => annotationOnly(resolve(doc, member, "#").node);
  for (const member of hl)
    if (refOf(member) && !bRefs.has(refOf(member)))
      emit("all-of", { change: "added", annotationOnly: only(head, member) });
  for (const member of bl)
    if (refOf(member) && !hRefs.has(refOf(member)))
      emit("all-of", { change: "removed", annotationOnly: only(base, member) });
  const bInline = bl.filter((m) => !refOf(m));
  const hInline = hl.filter((m) => !refOf(m));
  for (const member of hInline.slice(bInline.length))
    emit("all-of", { change: "added", annotationOnly: only(head, member) });
  for (const member of bInline.slice(hInline.length))
    emit("all-of", { change: "removed", annotationOnly: only(base, member) });
}
