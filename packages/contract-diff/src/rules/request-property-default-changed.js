import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-default-changed",
  level: "warning",
  doc: "The default of a value callers may leave out changed: they get different behaviour. (The peer says info.)",
  on: "default",
  when: (e) => request(e) && !e.flags?.parameter === true && e.change === "changed",
  message: (e) => `default ${show(e.before)} -> ${show(e.after)}`,
  given: {
    request: [
      { type: "integer", default: 1 },
      { type: "integer", default: 2 },
    ],
  },
};
