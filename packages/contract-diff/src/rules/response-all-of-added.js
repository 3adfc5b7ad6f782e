import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-all-of-added",
  level: "info",
  doc: "A schema readers receive gained an allOf member (more promises).",
  on: "all-of",
  when: (e) => response(e) && e.change === "added" && !e.annotationOnly,
  message: () => "allOf member added",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } } },
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "string" } } },
        ],
      },
    ],
  },
};
