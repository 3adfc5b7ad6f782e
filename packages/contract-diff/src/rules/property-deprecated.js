import { deprecation } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "property-deprecated",
  level: "info",
  doc: "A property or schema was deprecated.",
  on: "deprecated",
  when: (e, policy) => e.change === "set" && deprecation(e, policy) === "ok",
  message: (e) => `deprecated${e.sunset ? `, sunset ${e.sunset}` : ""}`,
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string", deprecated: true } } },
    ],
  },
};
