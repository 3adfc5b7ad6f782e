// JSON types and formats: a type set widened, narrowed or changed, `null` allowed or refused, a format set,
// unset, widened (int32 -> int64) or narrowed.
import { typeCovered, typesOf } from "../schema-view.js";

/** @typedef {import("./scope.js").Emit} Emit */

const FORMAT_WIDER = { int32: ["int64"], float: ["double"] };

/** @param {Emit} emit */
export function compareTypes(b, h, emit) {
  const bt = typesOf(b);
  const ht = typesOf(h);
  const union = (schema) => Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf);
  // A union on one side says its types through its variants: the union rules report that change.
  if ((!bt || !ht) && (union(b) || union(h))) return compareFormat(b, h, emit);
  if (bt || ht) compareTypeSets(bt, ht, emit);
  compareFormat(b, h, emit);
}

/** @param {Set<string> | undefined} bt @param {Set<string> | undefined} ht @param {Emit} emit */
function compareTypeSets(bt, ht, emit) {
  const same = bt && ht && bt.size === ht.size && [...bt].every((t) => ht.has(t));
  if (!same) {
    const withoutNull = (types) => (types ? new Set([...types].filter((t) => t !== "null")) : undefined);
    const bn = withoutNull(bt);
    const hn = withoutNull(ht);
    const nullOnly = bn && hn && bn.size === hn.size && [...bn].every((t) => hn.has(t));
    if (nullOnly) emit("nullable", { change: ht.has("null") ? "set" : "unset" });
    else {
      const text = (types) => (types ? [...types].join(" | ") : "any");
      let change = "changed";
      if (!ht) change = "widened";
      else if (!bt) change = "narrowed";
      else if ([...bt].every((t) => typeCovered(ht, t))) change = "widened";
      else if ([...ht].every((t) => typeCovered(bt, t))) change = "narrowed";
      emit("type", { change, before: text(bt), after: text(ht) });
    }
  }
}

/** @param {Emit} emit */
function compareFormat(b, h, emit) {
  if (b.format !== h.format) {
    let change = "changed";
    if (b.format === undefined) change = "set";
    else if (h.format === undefined) change = "unset";
    else if (FORMAT_WIDER[b.format]?.includes(h.format)) change = "widened";
    else if (FORMAT_WIDER[h.format]?.includes(b.format)) change = "narrowed";
    emit("format", { change, before: b.format, after: h.format });
  }
}
