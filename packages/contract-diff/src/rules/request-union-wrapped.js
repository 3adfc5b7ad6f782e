import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-union-wrapped",
  level: "error",
  doc: "A schema callers send became a oneOf/anyOf with no variant that takes what it took before: generated callers change shape.",
  on: "union",
  when: (e) => request(e) && e.change === "wrapped" && !e.keepsOld,
  message: (e) => `became a ${e.keyword}`,
  given: {
    request: [{ type: "string" }, { oneOf: [{ type: "string", maxLength: 10 }, { type: "integer" }] }],
  },
};
