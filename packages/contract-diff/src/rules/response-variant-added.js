import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-variant-added",
  level: "error",
  doc: "A oneOf/anyOf that readers receive may now be another variant: readers that handle only the known ones break.",
  on: "variant",
  when: (e) => response(e) && e.change === "added",
  message: (e) => `${e.keyword} variant ${e.name} added`,
  given: {
    response: [
      { anyOf: [{ title: "A", type: "string" }] },
      {
        anyOf: [
          { title: "A", type: "string" },
          { title: "B", type: "integer" },
        ],
      },
    ],
  },
};
