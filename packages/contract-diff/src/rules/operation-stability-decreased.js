import { stabilityRank } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-stability-decreased",
  level: "error",
  doc: "An operation's `x-stability-level` went down (stable -> beta -> alpha -> draft): callers relied on the stronger promise.",
  on: "operation-stability",
  when: (e) => stabilityRank(e.after) >= 0 && stabilityRank(e.after) < stabilityRank(e.before),
  message: (e) => `stability went from ${e.before ?? "stable"} to ${e.after ?? "stable"}`,
  given: {
    operation: [
      { "x-stability-level": "stable", responses: { 200: { description: "ok" } } },
      { "x-stability-level": "beta", responses: { 200: { description: "ok" } } },
    ],
  },
};
