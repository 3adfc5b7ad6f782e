import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-prefix-items-removed",
  level: "error",
  doc: "A tuple callers send no longer describes a position.",
  on: "prefix-items",
  when: (e) => request(e) && e.change === "removed",
  message: (e) => `prefixItems position ${e.index} no longer described`,
  given: {
    request: [
      { type: "array", prefixItems: [{ type: "string" }, { type: "string" }] },
      { type: "array", prefixItems: [{ type: "string" }] },
    ],
  },
};
