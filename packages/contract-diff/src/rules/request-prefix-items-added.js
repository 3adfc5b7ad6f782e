import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-prefix-items-added",
  level: "info",
  doc: "A tuple callers send describes another position (items there were already allowed).",
  on: "prefix-items",
  when: (e) => request(e) && e.change === "added",
  message: (e) => `prefixItems position ${e.index} described`,
  given: {
    request: [
      { type: "array", prefixItems: [{ type: "string" }] },
      { type: "array", prefixItems: [{ type: "string" }, { type: "string" }] },
    ],
  },
};
