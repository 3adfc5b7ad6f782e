import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-property-access-changed",
  level: "info",
  doc: "A property readers receive became read-only or stopped being read-only.",
  on: "read-only",
  when: (e) => response(e),
  message: (e) => `readOnly ${e.change === "set" ? "added" : "removed"}`,
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string", readOnly: true } } },
    ],
  },
};
