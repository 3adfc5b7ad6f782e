import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-enum-removed",
  level: "info",
  doc: "A value callers send is no longer limited to an enum.",
  on: "enum",
  when: (e) => request(e) && e.change === "unset",
  message: () => "no longer limited to an enum",
  given: { request: [{ type: "string", enum: ["a"] }, { type: "string" }] },
};
