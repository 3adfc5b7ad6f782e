import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-const-added",
  level: "error",
  doc: "A value callers send is now one constant.",
  on: "const",
  when: (e) => request(e) && e.change === "set",
  message: (e) => `now always ${show(e.after)}`,
  given: { request: [{ type: "string" }, { type: "string", const: "a" }] },
};
