import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-prefix-items-removed",
  level: "info",
  doc: "A tuple readers receive no longer describes a position.",
  on: "prefix-items",
  when: (e) => response(e) && e.change === "removed",
  message: (e) => `prefixItems position ${e.index} no longer described`,
  given: {
    response: [
      { type: "array", prefixItems: [{ type: "string" }, { type: "string" }] },
      { type: "array", prefixItems: [{ type: "string" }] },
    ],
  },
};
