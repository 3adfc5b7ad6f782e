// JSON types and formats: a type set widened, narrowed or changed, `null` allowed or refused, a format set,
// unset, widened (int32 -> int64) or narrowed.
//
// A value that travels as text (a parameter or a header that is not sent as JSON content) has no JSON type on
// the wire: `5` and `true` are also strings there, so `string` covers number, integer and boolean. A query
// parameter changed from number to string accepts every value it did.
import { typeCovered, typesOf } from "../schema-view.js";

/** @typedef {import("./scope.js").Emit} Emit */

/** @type {Record<string, string[]>} */
const FORMAT_WIDER = { int32: ["int64"], float: ["double"] };
const SCALARS = new Set(["number", "integer", "boolean"]);

/**
 * @param {Record<string, import("../json.js").Json>} b @param {Record<string, import("../json.js").Json>} h @param {Emit} emit
 * @param {boolean} [text] the value travels as text (see above)
 */
export function compareTypes(b, h, emit, text = false) {
  const bt = typesOf(b);
  const ht = typesOf(h);
  const union = (/** @type {import("../json.js").Json} */ schema) =>
    Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf);
  // A union on one side says its types through its variants: the union rules report that change.
  if ((!bt || !ht) && (union(b) || union(h))) return compareFormat(b, h, emit);
  if (bt || ht) compareTypeSets(bt, ht, emit, text);
  compareFormat(b, h, emit);
}

/**
 * Whether every value of `type` is one of `types`; as text, a string stands for any scalar.
 * @param {Set<string>} types @param {string} type @param {boolean} text
 */
const covered = (types, type, text) =>
  typeCovered(types, type) || (text && SCALARS.has(type) && types.has("string"));

/**
 * @param {Set<string> | undefined} bt @param {Set<string> | undefined} ht @param {Emit} emit
 * @param {boolean} asText
 */
function compareTypeSets(bt, ht, emit, asText) {
  const same = bt && ht && bt.size === ht.size && [...bt].every((t) => ht.has(t));
  if (!same) {
    const withoutNull = (/** @type {Set<string> | undefined} */ types) =>
      types ? new Set([...types].filter((t) => t !== "null")) : undefined;
    const bn = withoutNull(bt);
    const hn = withoutNull(ht);
    const nullOnly = bn && hn && bn.size === hn.size && [...bn].every((t) => hn.has(t));
    if (nullOnly) emit("nullable", { change: ht?.has("null") ? "set" : "unset" });
    else {
      const text = (/** @type {Set<string> | undefined} */ types) => (types ? [...types].join(" | ") : "any");
      let change = "changed";
      if (!ht) change = "widened";
      else if (!bt) change = "narrowed";
      else if ([...bt].every((t) => covered(ht, t, asText))) change = "widened";
      else if ([...ht].every((t) => covered(bt, t, asText))) change = "narrowed";
      emit("type", { change, before: text(bt), after: text(ht) });
    }
  }
}

/** @param {Emit} emit */
function compareFormat(
  /** @type {import("../json.js").Json} */ b,
  /** @type {import("../json.js").Json} */ h,
  emit,
) {
  if (b.format !== h.format) {
    let change = "changed";
    if (b.format === undefined) change = "set";
    else if (h.format === undefined) change = "unset";
    else if (FORMAT_WIDER[b.format]?.includes(h.format)) change = "widened";
    else if (FORMAT_WIDER[h.format]?.includes(b.format)) change = "narrowed";
    emit("format", { change, before: b.format, after: h.format });
  }
}
