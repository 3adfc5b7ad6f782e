import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-unevaluated-items-added",
  level: "error",
  doc: "What callers send gained a `unevaluatedItems` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "unevaluatedItems" && e.change === "set",
  message: () => "unevaluatedItems added",
  given: {
    request: [
      { type: "array", prefixItems: [{ type: "string" }] },
      { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: false },
    ],
  },
};
