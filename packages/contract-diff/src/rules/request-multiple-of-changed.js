import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-multiple-of-changed",
  level: "error",
  doc: "The multipleOf on what callers send changed so that some values they send are refused.",
  on: "multiple-of",
  when: (e) => request(e) && ["changed", "narrowed"].includes(String(e.change)),
  message: (e) => `multipleOf ${e.before} -> ${e.after}`,
  given: {
    request: [
      { type: "integer", multipleOf: 2 },
      { type: "integer", multipleOf: 4 },
    ],
  },
};
