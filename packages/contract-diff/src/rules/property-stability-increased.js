import { stabilityRank, unreadableLevel } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "property-stability-increased",
  level: "info",
  doc: "A property's `x-stability-level` went up or was set.",
  on: "stability",
  when: (e) =>
    !unreadableLevel(e.before) &&
    stabilityRank(e.after) >= 0 &&
    !(stabilityRank(e.after) < stabilityRank(e.before)),
  message: (e) => `stability ${e.before ?? "stable"} -> ${e.after ?? "stable"}`,
  given: {
    response: [
      { type: "object", properties: { a: { type: "string", "x-stability-level": "alpha" } } },
      { type: "object", properties: { a: { type: "string", "x-stability-level": "stable" } } },
    ],
  },
};
