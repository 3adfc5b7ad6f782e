import { deprecation } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "property-deprecated-without-sunset",
  level: "error",
  doc: "A property was deprecated without a valid `x-sunset` far enough ahead while a minimum deprecation period is set.",
  on: "deprecated",
  when: (e, policy) => e.change === "set" && deprecation(e, policy) !== "ok",
  message: (e) =>
    `deprecated with sunset ${e.sunset ?? "(none)"}: the policy asks for a date at least the minimum period ahead`,
  given: {
    policy: { deprecationDays: 30 },
    response: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string", deprecated: true } } },
    ],
  },
};
