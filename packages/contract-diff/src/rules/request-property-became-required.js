import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-became-required",
  level: "error",
  doc: "A property callers send became required.",
  on: "required",
  when: (e) => request(e) && e.change === "set" && !e.readOnly,
  message: () => "property became required",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    ],
  },
};
