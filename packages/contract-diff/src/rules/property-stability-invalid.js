import { STABILITY, stabilityRank, unreadableLevel } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "property-stability-invalid",
  level: "error",
  doc: "A property's `x-stability-level` is something other than draft, alpha, beta or stable, in the head or in the base of a change to it: a policy that cannot be read cannot be enforced.",
  on: "stability",
  when: (e) => stabilityRank(e.after) < 0 || unreadableLevel(e.before),
  message: (e) =>
    stabilityRank(e.after) < 0
      ? `x-stability-level ${JSON.stringify(e.after)} is not one of ${STABILITY.join(", ")}`
      : `x-stability-level ${JSON.stringify(e.before)} of the base is not one of ${STABILITY.join(", ")}: whether ${e.after ?? "stable"} keeps its promise cannot be told`,
  // The base's level cannot be read and the change makes it one.
  given: {
    request: [
      { type: "object", properties: { a: { type: "string", "x-stability-level": "gamma" } } },
      { type: "object", properties: { a: { type: "string", "x-stability-level": "stable" } } },
    ],
  },
};
