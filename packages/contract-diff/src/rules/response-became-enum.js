import { list, response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-became-enum",
  level: "info",
  doc: "A value readers receive is now limited to an enum.",
  on: "enum",
  when: (e) => response(e) && e.change === "set",
  message: (e) => `now limited to ${list(e.values)}`,
  given: { response: [{ type: "string" }, { type: "string", enum: ["a"] }] },
};
