import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-all-of-added",
  level: "error",
  doc: "A schema callers send gained an allOf member: it must now also match that.",
  on: "all-of",
  when: (e) => request(e) && e.change === "added" && !e.annotationOnly,
  message: () => "allOf member added",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "string" } }, required: ["b"] },
        ],
      },
    ],
  },
};
