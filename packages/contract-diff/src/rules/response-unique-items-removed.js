import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-unique-items-removed",
  level: "error",
  doc: "An array readers receive may now repeat items.",
  on: "unique-items",
  when: (e) => response(e) && e.change === "unset",
  message: () => "uniqueItems removed",
  given: {
    response: [
      { type: "array", items: { type: "string" }, uniqueItems: true },
      { type: "array", items: { type: "string" } },
    ],
  },
};
