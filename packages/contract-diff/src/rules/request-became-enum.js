import { list, request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-became-enum",
  level: "error",
  doc: "A value callers send is now limited to an enum.",
  on: "enum",
  when: (e) => request(e) && e.change === "set",
  message: (e) => `now limited to ${list(e.values)}`,
  given: { request: [{ type: "string" }, { type: "string", enum: ["a"] }] },
};
