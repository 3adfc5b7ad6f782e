import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-content-encoding-changed",
  level: "error",
  doc: "The contentMediaType or contentEncoding of a string callers send changed, appeared or (contentEncoding) went: they encode it differently.",
  on: "content-encoding",
  when: (e) => request(e) && !(e.change === "removed" && e.keyword === "contentMediaType"),
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    request: [
      { type: "string", contentEncoding: "base64" },
      { type: "string", contentEncoding: "base32" },
    ],
  },
};
