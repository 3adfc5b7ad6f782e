import { stabilityRank } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-stability-invalid",
  level: "error",
  doc: "An operation's `x-stability-level` is not one of draft, alpha, beta, stable.",
  on: "operation-stability",
  when: (e) => stabilityRank(e.after) < 0,
  message: (e) => `x-stability-level ${JSON.stringify(e.after)} is not draft, alpha, beta or stable`,
  given: {
    operation: [
      { responses: { 200: { description: "ok" } } },
      { "x-stability-level": "gamma", responses: { 200: { description: "ok" } } },
    ],
  },
};
