import { removal, response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-property-removed-after-sunset",
  level: "info",
  doc: "A deprecated (or write-only) property was removed from what readers receive.",
  on: "property",
  when: (e, policy) =>
    response(e) && e.change === "removed" && (e.writeOnly || removal(e, policy) === "after-sunset"),
  message: () => "deprecated or write-only property removed",
  given: {
    response: [
      {
        type: "object",
        properties: {
          a: { type: "string" },
          b: { type: "string", deprecated: true, "x-sunset": "2020-01-01" },
        },
        required: ["a", "b"],
      },
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    ],
  },
};
