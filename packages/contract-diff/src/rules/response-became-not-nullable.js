import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-became-not-nullable",
  level: "info",
  doc: "A value readers receive is never null any more.",
  on: "nullable",
  when: (e) => response(e) && e.change === "unset",
  message: () => "never null now",
  given: { response: [{ type: ["string", "null"] }, { type: "string" }] },
};
