import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-became-nullable",
  level: "info",
  doc: "A value callers send may now be null.",
  on: "nullable",
  when: (e) => request(e) && e.change === "set",
  message: () => "now accepts null",
  given: { request: [{ type: "string" }, { type: ["string", "null"] }] },
};
