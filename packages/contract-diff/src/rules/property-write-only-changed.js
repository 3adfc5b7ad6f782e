import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "property-write-only-changed",
  level: "info",
  doc: "A property became write-only or stopped being write-only.",
  on: "write-only",
  when: (e) => !(response(e) && e.change === "unset" && e.required),
  message: (e) => `writeOnly ${e.change === "set" ? "added" : "removed"}`,
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string", writeOnly: true } } },
    ],
  },
};
