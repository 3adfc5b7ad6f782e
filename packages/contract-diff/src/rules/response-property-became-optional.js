import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-property-became-optional",
  level: "error",
  doc: "A property readers receive is no longer always present.",
  on: "required",
  when: (e) => response(e) && e.change === "unset" && !e.writeOnly,
  message: () => "no longer always present: readers cannot rely on it",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
