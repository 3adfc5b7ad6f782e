import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-variant-removed",
  level: "info",
  doc: "A oneOf/anyOf that readers receive is no longer one of its variants.",
  on: "variant",
  when: (e) => response(e) && e.change === "removed",
  message: (e) => `${e.keyword} variant ${e.name} removed`,
  given: {
    response: [
      {
        oneOf: [
          { title: "A", type: "string" },
          { title: "B", type: "integer" },
        ],
      },
      { oneOf: [{ title: "A", type: "string" }] },
    ],
  },
};
