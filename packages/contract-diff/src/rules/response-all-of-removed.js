import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-all-of-removed",
  level: "error",
  doc: "A schema readers receive lost an allOf member: what it promised is gone.",
  on: "all-of",
  when: (e) => response(e) && e.change === "removed" && !e.annotationOnly,
  message: () => "allOf member removed",
  given: {
    response: [
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "string" } }, required: ["b"] },
        ],
      },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
