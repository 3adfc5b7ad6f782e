import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-added-required",
  level: "error",
  doc: "A required property was added to what callers send: callers that leave it out are refused (a default does not help: the body is checked before defaults apply).",
  on: "property",
  when: (e) => request(e) && e.change === "added" && e.required && !e.readOnly,
  message: () => "new required property",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["b"] },
    ],
  },
};
