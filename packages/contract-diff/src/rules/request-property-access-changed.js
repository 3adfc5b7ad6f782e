import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-access-changed",
  level: "info",
  doc: "A property callers send became read-only or stopped being read-only.",
  on: "read-only",
  when: (e) => request(e),
  message: (e) => `readOnly ${e.change === "set" ? "added" : "removed"}`,
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string", readOnly: true } } },
    ],
  },
};
