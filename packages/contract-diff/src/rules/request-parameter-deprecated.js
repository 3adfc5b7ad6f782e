import { deprecation } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-deprecated",
  level: "info",
  doc: "A parameter was deprecated.",
  on: "parameter-deprecated",
  when: (e, policy) => e.change === "set" && deprecation(e, policy) === "ok",
  message: (e) => `parameter deprecated${e.sunset ? `, sunset ${e.sunset}` : ""}`,
  given: {
    parameter: [
      { name: "q", in: "query", schema: { type: "string" } },
      { name: "q", in: "query", schema: { type: "string" }, deprecated: true },
    ],
  },
};
