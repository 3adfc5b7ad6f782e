// The rules a review needs, loaded when it needs them: the differ asks for the rules of each kind of change
// event it meets (./kinds.js, generated, names them), and the SARIF output for the rules its findings name.
// Loading all 250 modules took longer than the rest of a review of a small change. The modules are ES
// modules; `require` loads them synchronously (Node 20.19 and later, as the package's engines say), so the
// differ's API stays synchronous.
import { createRequire } from "node:module";
import { RULE_KINDS } from "./kinds.js";

/** @typedef {import("./rule.js").Rule} Rule */

const require = createRequire(import.meta.url);
/** @type {Map<string, readonly Rule[]>} */
const byKind = new Map();

/** The rule of id `id` (its module is `<id>.js`). @param {string} id @returns {Rule} */
export const ruleNamed = (id) => require(`./${id}.js`).default;

/** The rules that read change events of `kind`. @param {string} kind @returns {readonly Rule[]} */
export function rulesOn(kind) {
  let rules = byKind.get(kind);
  if (!rules) {
    rules = Object.hasOwn(RULE_KINDS, kind) ? (RULE_KINDS[kind] ?? []).map(ruleNamed) : [];
    byKind.set(kind, rules);
  }
  return rules;
}
