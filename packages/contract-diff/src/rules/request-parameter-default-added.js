import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-default-added",
  level: "info",
  doc: "A parameter's default is now documented.",
  on: "default",
  when: (e) => request(e) && e.flags?.parameter === true && e.change === "set",
  message: (e) => `default ${show(e.after)} documented`,
  given: {
    parameter: [
      { name: "q", in: "query", schema: { type: "integer" } },
      { name: "q", in: "query", schema: { type: "integer", default: 50 } },
    ],
  },
};
