import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-unevaluated-items-removed",
  level: "info",
  doc: "What callers send lost its `unevaluatedItems` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "unevaluatedItems" && e.change === "unset",
  message: () => "unevaluatedItems removed",
  given: {
    request: [
      { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: false },
      { type: "array", prefixItems: [{ type: "string" }] },
    ],
  },
};
