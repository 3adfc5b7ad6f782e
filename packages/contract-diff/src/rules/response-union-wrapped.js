import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-union-wrapped",
  level: "error",
  doc: "A schema readers receive became a oneOf/anyOf: readers must tell the variants apart.",
  on: "union",
  when: (e) => response(e) && e.change === "wrapped",
  message: (e) => `became a ${e.keyword}`,
  given: { response: [{ type: "string" }, { oneOf: [{ type: "string" }, { type: "integer" }] }] },
};
