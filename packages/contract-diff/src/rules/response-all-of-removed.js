import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-all-of-removed",
  level: "info",
  doc: "A schema readers receive lost an allOf member; what the member promised (its properties, required names, bounds) is reported by the rules for each, so the member itself is info, as the peer says.",
  on: "all-of",
  when: (e) => response(e) && e.change === "removed" && !e.annotationOnly,
  message: () => "allOf member removed (what it promised is reported on its own)",
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
