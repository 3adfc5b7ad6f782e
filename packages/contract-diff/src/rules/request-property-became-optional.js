import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-became-optional",
  level: "info",
  doc: "A property callers send became optional (or is read-only, so callers never send it).",
  on: "required",
  when: (e) => request(e) && (e.change === "unset" || e.readOnly),
  message: () => "property became optional",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
