import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-all-of-removed",
  level: "info",
  doc: "A schema callers send lost an allOf member.",
  on: "all-of",
  when: (e) => request(e) && e.change === "removed" && !e.annotationOnly,
  message: () => "allOf member removed",
  given: {
    request: [
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "string" } } },
        ],
      },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
