import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-unevaluated-items-removed",
  level: "error",
  doc: "What readers receive lost its `unevaluatedItems` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "unevaluatedItems" && e.change === "unset",
  message: () => "unevaluatedItems removed",
  given: {
    response: [
      { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: false },
      { type: "array", prefixItems: [{ type: "string" }] },
    ],
  },
};
