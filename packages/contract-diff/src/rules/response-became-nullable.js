import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-became-nullable",
  level: "error",
  doc: "A value readers receive may now be null.",
  on: "nullable",
  when: (e) => response(e) && e.change === "set",
  message: () => "may now be null",
  given: { response: [{ type: "string" }, { type: "string", nullable: true }] },
};
