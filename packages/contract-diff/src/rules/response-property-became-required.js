import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-property-became-required",
  level: "info",
  doc: "A property readers receive is now always present.",
  on: "required",
  when: (e) => response(e) && (e.change === "set" || e.writeOnly),
  message: () => "now always present",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    ],
  },
};
