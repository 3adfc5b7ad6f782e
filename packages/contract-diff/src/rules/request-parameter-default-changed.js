import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-default-changed",
  level: "error",
  doc: "A parameter's default changed: callers that leave it out get different behaviour.",
  on: "default",
  when: (e) => request(e) && e.flags?.parameter === true && e.change === "changed",
  message: (e) => `default ${show(e.before)} -> ${show(e.after)}`,
  given: {
    parameter: [
      { name: "q", in: "query", schema: { type: "integer", default: 50 } },
      { name: "q", in: "query", schema: { type: "integer", default: 20 } },
    ],
  },
};
