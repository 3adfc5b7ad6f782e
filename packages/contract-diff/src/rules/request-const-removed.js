import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-const-removed",
  level: "info",
  doc: "A value callers send is no longer one constant.",
  on: "const",
  when: (e) => request(e) && e.change === "unset",
  message: (e) => `no longer always ${show(e.before)}`,
  given: { request: [{ type: "string", const: "a" }, { type: "string" }] },
};
