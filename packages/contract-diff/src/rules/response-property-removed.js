import { removal, response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-property-removed",
  level: "error",
  doc: "A property readers were promised (required) was removed: readers lose it.",
  on: "property",
  when: (e, policy) =>
    response(e) &&
    e.change === "removed" &&
    e.required &&
    !e.writeOnly &&
    removal(e, policy) !== "after-sunset",
  message: () => "required property removed: readers lose it",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a", "b"] },
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    ],
  },
};
