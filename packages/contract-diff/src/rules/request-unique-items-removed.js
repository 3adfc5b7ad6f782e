import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-unique-items-removed",
  level: "info",
  doc: "An array callers send may now repeat items.",
  on: "unique-items",
  when: (e) => request(e) && e.change === "unset",
  message: () => "uniqueItems removed",
  given: {
    request: [
      { type: "array", items: { type: "string" }, uniqueItems: true },
      { type: "array", items: { type: "string" } },
    ],
  },
};
