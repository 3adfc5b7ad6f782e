// Security requirements of an operation (its own, else the document's): alternatives compared scope by scope
// or matched whole.
import { isObject } from "../schema-view.js";

/** @typedef {import("./context.js").Emit} Emit */

/** A requirement object as scheme names (`bearer`, `key + oauth`; `{}`, anonymous access, as `anonymous`). */
function alternatives(/** @type {import("../json.js").Json} */ list) {
  return (Array.isArray(list) ? list : []).filter(isObject).map((requirement) => {
    const schemes = Object.keys(requirement).sort();
    /** @type {Map<string, Set<string>>} */
    const scopes = new Map(
      schemes.map((s) => [s, new Set(Array.isArray(requirement[s]) ? requirement[s] : [])]),
    );
    const text = schemes
      .map((s) => {
        const of = scopes.get(s) ?? new Set();
        return `${s}${of.size ? `: ${[...of].sort().join(", ")}` : ""}`;
      })
      .join(" + ");
    return { name: schemes.join(" + ") || "anonymous", scopes, text: text || "anonymous" };
  });
}

/**
 * Security requirements. Alternatives with the same schemes on both sides, one each, are compared scope by
 * scope; otherwise alternatives are matched whole (schemes and scopes), and what is left is added or removed.
 * @param {Emit} emit @param {string} pointer
 */
export function compareSecurity(
  /** @type {import("../json.js").Json} */ bList,
  /** @type {import("../json.js").Json} */ hList,
  emit,
  pointer,
) {
  const global = pointer === "#/security";
  const before = alternatives(bList);
  const after = alternatives(hList);
  const byName = (/** @type {import("../json.js").Json} */ all, /** @type {string} */ name) =>
    all.filter((/** @type {import("../json.js").Json} */ a) => a.name === name);
  const paired = new Set();
  for (const name of new Set(after.map((a) => a.name))) {
    const b = byName(before, name);
    const h = byName(after, name);
    if (b.length !== 1 || h.length !== 1) continue;
    paired.add(name);
    for (const [scheme, scopes] of h[0].scopes) {
      const old = b[0].scopes.get(scheme) ?? new Set();
      for (const scope of scopes)
        if (!old.has(scope))
          emit("security-scope", { change: "added", scheme, scope, global, where: "security", pointer });
      for (const scope of old)
        if (!scopes.has(scope))
          emit("security-scope", { change: "removed", scheme, scope, global, where: "security", pointer });
    }
  }
  const texts = (/** @type {import("../json.js").Json} */ all) =>
    new Set(
      all
        .filter((/** @type {import("../json.js").Json} */ a) => !paired.has(a.name))
        .map((/** @type {import("../json.js").Json} */ a) => a.text),
    );
  const bt = texts(before);
  const ht = texts(after);
  // Requirements are alternatives (any one satisfied lets a call in): one added while every earlier
  // alternative is still offered (scope changes aside, reported above) is another way in, not a new demand.
  const alternative =
    before.length > 0 && before.every((b) => paired.has(b.name) || after.some((a) => a.text === b.text));
  for (const text of ht)
    if (!bt.has(text))
      emit("security", { change: "added", name: text, global, alternative, where: "security", pointer });
  for (const text of bt)
    if (!ht.has(text))
      emit("security", { change: "removed", name: text, global, where: "security", pointer });
}
