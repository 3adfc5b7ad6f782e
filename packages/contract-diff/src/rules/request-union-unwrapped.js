import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-union-unwrapped",
  level: "error",
  doc: "A oneOf/anyOf callers send became a single schema: the other variants are refused.",
  on: "union",
  when: (e) => request(e) && e.change === "unwrapped",
  message: (e) => `no longer a ${e.keyword}`,
  given: { request: [{ oneOf: [{ type: "string" }, { type: "integer" }] }, { type: "string" }] },
};
