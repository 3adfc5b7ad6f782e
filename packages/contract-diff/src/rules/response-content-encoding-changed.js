import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-content-encoding-changed",
  level: "error",
  doc: "The contentMediaType or contentEncoding of a string readers receive changed: they decode it differently.",
  on: "content-encoding",
  when: (e) => response(e),
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    response: [
      { type: "string", contentMediaType: "image/png" },
      { type: "string", contentMediaType: "image/jpeg" },
    ],
  },
};
