import { stabilityRank, unreadableLevel } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-stability-invalid",
  level: "error",
  doc: "An operation's `x-stability-level` is not one of draft, alpha, beta, stable, in the head or in the base of a change to it (what it promised before cannot be read, so neither can whether the change keeps it).",
  on: "operation-stability",
  when: (e) => stabilityRank(e.after) < 0 || unreadableLevel(e.before),
  message: (e) =>
    stabilityRank(e.after) < 0
      ? `x-stability-level ${JSON.stringify(e.after)} is not draft, alpha, beta or stable`
      : `x-stability-level ${JSON.stringify(e.before)} of the base is not draft, alpha, beta or stable: whether ${e.after ?? "stable"} keeps its promise cannot be told`,
  // The base's level cannot be read and the change makes it one: the peer reports the base's value too.
  given: {
    operation: [
      { "x-stability-level": "gamma", responses: { 200: { description: "ok" } } },
      { "x-stability-level": "beta", responses: { 200: { description: "ok" } } },
    ],
  },
};
