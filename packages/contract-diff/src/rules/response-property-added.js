import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-property-added",
  level: "info",
  doc: "A property was added to what readers receive.",
  on: "property",
  when: (e) => response(e) && e.change === "added",
  message: (e) => `${e.required ? "required" : "optional"} property added`,
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } },
    ],
  },
};
