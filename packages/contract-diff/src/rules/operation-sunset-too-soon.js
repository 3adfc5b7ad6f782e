import { deprecation } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-sunset-too-soon",
  level: "error",
  doc: "An operation was deprecated with a sunset date closer than the minimum deprecation period.",
  on: "operation-deprecated",
  when: (e, policy) => e.change === "set" && deprecation(e, policy) === "too-soon",
  message: (e) => `sunset ${e.sunset} is sooner than the minimum deprecation period`,
  given: {
    operation: [
      { responses: { 200: { description: "ok" } } },
      { deprecated: true, "x-sunset": "2001-01-01", responses: { 200: { description: "ok" } } },
    ],
  },
};
