import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-unique-items-added",
  level: "error",
  doc: "An array callers send must now hold unique items.",
  on: "unique-items",
  when: (e) => request(e) && e.change === "set",
  message: () => "uniqueItems added",
  given: {
    request: [
      { type: "array", items: { type: "string" } },
      { type: "array", items: { type: "string" }, uniqueItems: true },
    ],
  },
};
