import { deprecation } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-deprecated",
  level: "info",
  doc: "An operation was deprecated, with a sunset date far enough ahead (or none, when no minimum period is asked).",
  on: "operation-deprecated",
  when: (e, policy) => e.change === "set" && deprecation(e, policy) === "ok",
  message: (e) => `operation deprecated${e.sunset ? `, sunset ${e.sunset}` : ""}`,
  given: {
    operation: [
      { responses: { 200: { description: "ok" } } },
      { deprecated: true, responses: { 200: { description: "ok" } } },
    ],
  },
};
