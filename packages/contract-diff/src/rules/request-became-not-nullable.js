import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-became-not-nullable",
  level: "error",
  doc: "A value callers send may no longer be null.",
  on: "nullable",
  when: (e) => request(e) && e.change === "unset",
  message: () => "no longer accepts null",
  given: { request: [{ type: ["string", "null"] }, { type: "string" }] },
};
