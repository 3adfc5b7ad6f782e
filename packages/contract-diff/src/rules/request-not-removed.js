import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-not-removed",
  level: "info",
  doc: "What callers send lost its `not` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "not" && e.change === "unset",
  message: () => "not removed",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } }, not: { required: ["b"] } },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
