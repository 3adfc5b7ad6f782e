import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-default-removed",
  level: "warning",
  doc: "A parameter's default is no longer documented: callers that leave it out cannot tell what they get.",
  on: "default",
  when: (e) => request(e) && e.flags?.parameter === true && e.change === "unset",
  message: (e) => `default ${show(e.before)} removed`,
  given: {
    parameter: [
      { name: "q", in: "query", schema: { type: "integer", default: 50 } },
      { name: "q", in: "query", schema: { type: "integer" } },
    ],
  },
};
