import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-prefix-items-added",
  level: "error",
  doc: "A tuple readers receive describes a new position.",
  on: "prefix-items",
  when: (e) => response(e) && e.change === "added",
  message: (e) => `prefixItems position ${e.index} described`,
  given: {
    response: [
      { type: "array", prefixItems: [{ type: "string" }] },
      { type: "array", prefixItems: [{ type: "string" }, { type: "string" }] },
    ],
  },
};
