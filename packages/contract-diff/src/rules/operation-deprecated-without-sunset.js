import { deprecation } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-deprecated-without-sunset",
  level: "error",
  doc: "An operation was deprecated without an `x-sunset` date while a minimum deprecation period is set: callers cannot tell when it goes.",
  on: "operation-deprecated",
  when: (e, policy) => e.change === "set" && deprecation(e, policy) === "missing",
  message: () => "operation deprecated without an x-sunset date",
  given: {
    policy: { deprecationDays: 30 },
    operation: [
      { responses: { 200: { description: "ok" } } },
      { deprecated: true, responses: { 200: { description: "ok" } } },
    ],
  },
};
