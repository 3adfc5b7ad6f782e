// Subschemas under keywords: items, additionalProperties and the other single-schema keywords (compared
// below a segment such as `[]` or `{*}`, or reported set/unset), prefixItems by position, dependentSchemas
// and patternProperties by name, and dependentRequired lists.
import { child, isObject } from "../schema-view.js";

/** @typedef {import("./scope.js").SchemaScope} SchemaScope */

/** Other keywords holding one schema, compared below `<keyword>`. */
const SINGLE_SCHEMA = [
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentSchema",
  "if",
  "then",
  "else",
];

/** @param {SchemaScope} scope @param {string} bp @param {string} hp */
export function compareSubschemas(
  scope,
  /** @type {import("../json.js").Json} */ b,
  bp,
  /** @type {import("../json.js").Json} */ h,
  hp,
) {
  const { emit } = scope;
  const itemsChange = pair(scope, b, bp, h, hp, "items", "[]");
  if (itemsChange) emit("subschema", { change: itemsChange, keyword: "items" });
  const additional = pair(scope, b, bp, h, hp, "additionalProperties", "{*}");
  if (additional) emit("subschema", { change: additional, keyword: "additionalProperties" });
  for (const keyword of SINGLE_SCHEMA) {
    const change = pair(scope, b, bp, h, hp, keyword, `<${keyword}>`);
    if (change) emit("subschema", { change, keyword });
  }
  const notChange = pair(scope, b, bp, h, hp, "not", "<not>");
  if (notChange) emit("subschema", { change: notChange, keyword: "not" });
  comparePrefixItems(scope, b, bp, h, hp);
  compareKeyedSubschemas(scope, b, bp, h, hp);
  compareDependentRequired(b, h, emit);
}

/**
 * One keyword's schemas: compared below `segment` when both sides have one; otherwise the change to report
 * ("set" or "unset"), or undefined when there is none.
 * @param {SchemaScope} scope @param {string} bp @param {string} hp
 * @param {string} keyword @param {string} segment
 * @returns {"set" | "unset" | undefined}
 */
function pair(
  scope,
  /** @type {import("../json.js").Json} */ b,
  bp,
  /** @type {import("../json.js").Json} */ h,
  hp,
  keyword,
  segment,
) {
  // `true` admits everything, like an absent keyword.
  const bs = b[keyword] === true ? undefined : b[keyword];
  const hs = h[keyword] === true ? undefined : h[keyword];
  const isSchema = (/** @type {import("../json.js").Json} */ s) => isObject(s) || typeof s === "boolean";
  if (isSchema(bs) && isSchema(hs)) {
    if (typeof bs === "boolean" || typeof hs === "boolean") {
      // `false` on one side only (the other a schema): the false side admits nothing.
      if (bs !== hs && keyword !== "additionalProperties")
        scope.emit("subschema", { change: hs === false ? "set" : "unset", keyword });
    } else scope.nested(bs, child(bp, keyword), hs, child(hp, keyword), segment);
    return;
  }
  if (isSchema(bs) !== isSchema(hs)) return isSchema(hs) ? "set" : "unset";
  return undefined;
}

/** prefixItems by position: compared below `[i]` where both sides have one, else added or removed. */
function comparePrefixItems(
  /** @type {import("./scope.js").SchemaScope} */ scope,
  /** @type {import("../json.js").Json} */ b,
  /** @type {string} */ bp,
  /** @type {import("../json.js").Json} */ h,
  /** @type {string} */ hp,
) {
  const bPositions = Array.isArray(b.prefixItems) ? b.prefixItems : [];
  const hPositions = Array.isArray(h.prefixItems) ? h.prefixItems : [];
  for (let i = 0; i < Math.max(bPositions.length, hPositions.length); i++) {
    if (i < bPositions.length && i < hPositions.length) {
      scope.nested(
        bPositions[i],
        child(bp, "prefixItems", i),
        hPositions[i],
        child(hp, "prefixItems", i),
        `[${i}]`,
      );
    } else scope.emit("prefix-items", { change: i < hPositions.length ? "added" : "removed", index: i });
  }
}

/** dependentSchemas and patternProperties by name: compared below `<keyword:name>`, else added or removed. */
function compareKeyedSubschemas(
  /** @type {import("./scope.js").SchemaScope} */ scope,
  /** @type {import("../json.js").Json} */ b,
  /** @type {string} */ bp,
  /** @type {import("../json.js").Json} */ h,
  /** @type {string} */ hp,
) {
  for (const keyword of ["dependentSchemas", "patternProperties"]) {
    const bm = isObject(b[keyword]) ? b[keyword] : {};
    const hm = isObject(h[keyword]) ? h[keyword] : {};
    for (const name of Object.keys(hm)) {
      if (name in bm)
        scope.nested(
          bm[name],
          child(bp, keyword, name),
          hm[name],
          child(hp, keyword, name),
          `<${keyword}:${name}>`,
        );
      else scope.emit("keyed-subschema", { change: "added", keyword, name });
    }
    for (const name of Object.keys(bm))
      if (!(name in hm)) scope.emit("keyed-subschema", { change: "removed", keyword, name });
  }
}

/** dependentRequired: a list added or removed, or one that grew or shrank. */
function compareDependentRequired(
  /** @type {import("../json.js").Json} */ b,
  /** @type {import("../json.js").Json} */ h,
  /** @type {import("./scope.js").Emit} */ emit,
) {
  const bd = isObject(b.dependentRequired) ? b.dependentRequired : {};
  const hd = isObject(h.dependentRequired) ? h.dependentRequired : {};
  for (const name of new Set([...Object.keys(bd), ...Object.keys(hd)])) {
    const was = new Set(Array.isArray(bd[name]) ? bd[name] : []);
    const is = new Set(Array.isArray(hd[name]) ? hd[name] : []);
    if (!(name in bd)) emit("dependent-required", { change: "added", name, after: [...is] });
    else if (!(name in hd)) emit("dependent-required", { change: "removed", name, before: [...was] });
    else {
      const grew = [...is].some((n) => !was.has(n));
      const shrank = [...was].some((n) => !is.has(n));
      if (grew || shrank)
        emit("dependent-required", {
          change: grew ? "grew" : "shrank",
          name,
          before: [...was],
          after: [...is],
        });
    }
  }
}
