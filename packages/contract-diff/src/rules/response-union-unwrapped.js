import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-union-unwrapped",
  level: "info",
  doc: "A oneOf/anyOf readers receive became a single schema.",
  on: "union",
  when: (e) => response(e) && e.change === "unwrapped",
  message: (e) => `no longer a ${e.keyword}`,
  given: { response: [{ oneOf: [{ type: "string" }, { type: "integer" }] }, { type: "string" }] },
};
