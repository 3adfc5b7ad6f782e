import { deprecation } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-sunset-invalid",
  level: "error",
  doc: "An operation was deprecated with an `x-sunset` that is not a date.",
  on: "operation-deprecated",
  when: (e, policy) => e.change === "set" && deprecation(e, policy) === "invalid",
  message: (e) => `x-sunset ${JSON.stringify(e.sunset)} is not a date (YYYY-MM-DD)`,
  given: {
    operation: [
      { responses: { 200: { description: "ok" } } },
      { deprecated: true, "x-sunset": "soon", responses: { 200: { description: "ok" } } },
    ],
  },
};
