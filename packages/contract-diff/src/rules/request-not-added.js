import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-not-added",
  level: "error",
  doc: "What callers send gained a `not` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "not" && e.change === "set",
  message: () => "not added",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } }, not: { required: ["b"] } },
    ],
  },
};
