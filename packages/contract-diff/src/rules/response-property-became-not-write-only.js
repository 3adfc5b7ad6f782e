import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-property-became-not-write-only",
  level: "warning",
  doc: "A required property stopped being write-only: readers now receive a value they never did.",
  on: "write-only",
  when: (e) => response(e) && e.change === "unset" && e.required,
  message: () => "writeOnly removed from a required property",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string", writeOnly: true } }, required: ["a"] },
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    ],
  },
};
