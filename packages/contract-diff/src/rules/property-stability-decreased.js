import { stabilityRank } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "property-stability-decreased",
  level: "error",
  doc: "A property's `x-stability-level` went down.",
  on: "stability",
  when: (e) => stabilityRank(e.after) >= 0 && stabilityRank(e.after) < stabilityRank(e.before),
  message: (e) => `stability ${e.before ?? "stable"} -> ${e.after ?? "stable"}`,
  given: {
    response: [
      { type: "object", properties: { a: { type: "string", "x-stability-level": "stable" } } },
      { type: "object", properties: { a: { type: "string", "x-stability-level": "alpha" } } },
    ],
  },
};
