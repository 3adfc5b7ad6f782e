import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-variant-added",
  level: "info",
  doc: "A oneOf/anyOf that callers send accepts another variant.",
  on: "variant",
  when: (e) => request(e) && e.change === "added",
  message: (e) => `${e.keyword} variant ${e.name} added`,
  given: {
    request: [
      { oneOf: [{ title: "A", type: "string" }] },
      {
        oneOf: [
          { title: "A", type: "string" },
          { title: "B", type: "integer" },
        ],
      },
    ],
  },
};
