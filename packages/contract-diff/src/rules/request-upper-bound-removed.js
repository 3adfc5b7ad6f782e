import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-upper-bound-removed",
  level: "info",
  doc: "An upper bound on what callers send was removed.",
  on: "bound",
  when: (e) => request(e) && e.bound === "max" && e.change === "unset",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    request: [
      { type: "array", items: { type: "string" }, maxItems: 5 },
      { type: "array", items: { type: "string" } },
    ],
  },
};
