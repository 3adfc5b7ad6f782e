import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-content-media-type-removed",
  level: "info",
  doc: "A string callers send no longer declares the media type of its content: any string is taken, so what callers sent stays valid.",
  on: "content-encoding",
  when: (e) => request(e) && e.change === "removed" && e.keyword === "contentMediaType",
  message: (e) => `contentMediaType ${show(e.before)} removed`,
  given: {
    request: [{ type: "string", contentMediaType: "application/json" }, { type: "string" }],
  },
};
