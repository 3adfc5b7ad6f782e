import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-variant-removed",
  level: "error",
  doc: "A oneOf/anyOf that callers send lost a variant: callers sending it are refused.",
  on: "variant",
  when: (e) => request(e) && e.change === "removed",
  message: (e) => `${e.keyword} variant ${e.name} removed`,
  given: {
    request: [
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
