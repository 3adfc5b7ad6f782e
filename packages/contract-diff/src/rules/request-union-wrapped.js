import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-union-wrapped",
  level: "error",
  doc: "A schema callers send became a oneOf/anyOf: generated callers change shape.",
  on: "union",
  when: (e) => request(e) && e.change === "wrapped",
  message: (e) => `became a ${e.keyword}`,
  given: { request: [{ type: "string" }, { oneOf: [{ type: "string" }, { type: "integer" }] }] },
};
