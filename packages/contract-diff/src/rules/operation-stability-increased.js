import { stabilityRank } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-stability-increased",
  level: "info",
  doc: "An operation's `x-stability-level` went up (or an unreadable one was made a known level).",
  on: "operation-stability",
  when: (e) =>
    stabilityRank(e.after) >= 0 &&
    (stabilityRank(e.before) < 0 || stabilityRank(e.after) > stabilityRank(e.before)),
  message: (e) => `stability went from ${e.before ?? "stable"} to ${e.after ?? "stable"}`,
  given: {
    operation: [
      { "x-stability-level": "beta", responses: { 200: { description: "ok" } } },
      { "x-stability-level": "stable", responses: { 200: { description: "ok" } } },
    ],
  },
};
