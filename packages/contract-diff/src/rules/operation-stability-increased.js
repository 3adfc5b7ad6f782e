import { stabilityRank, unreadableLevel } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-stability-increased",
  level: "info",
  doc: "An operation's `x-stability-level` went up.",
  on: "operation-stability",
  when: (e) =>
    !unreadableLevel(e.before) &&
    stabilityRank(e.after) >= 0 &&
    stabilityRank(e.after) > stabilityRank(e.before),
  message: (e) => `stability went from ${e.before ?? "stable"} to ${e.after ?? "stable"}`,
  given: {
    operation: [
      { "x-stability-level": "beta", responses: { 200: { description: "ok" } } },
      { "x-stability-level": "stable", responses: { 200: { description: "ok" } } },
    ],
  },
};
