import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-unique-items-added",
  level: "info",
  doc: "An array readers receive now holds unique items.",
  on: "unique-items",
  when: (e) => response(e) && e.change === "set",
  message: () => "uniqueItems added",
  given: {
    response: [
      { type: "array", items: { type: "string" } },
      { type: "array", items: { type: "string" }, uniqueItems: true },
    ],
  },
};
