// A server the client tests can run against: the scripted server here, the reference server (@workapi/server)
// in reference-server.ts.
import { errorBody, pagedCollection, startScriptedServer } from "./scripted-server.js";

export interface Target {
  /** Shown in the test names. */
  name: string;
  baseUrl: string;
  /** A token with read access to tags. */
  token: string;
  /** How many tags the server holds (at least a few pages' worth). */
  tags: number;
  close(): Promise<void>;
}

/** The scripted server acting as the interface for tags.list and works.export. */
export async function scriptedTarget(): Promise<Target> {
  const server = await startScriptedServer();
  const token = "scripted-token";
  const tags = 230;
  const pages = pagedCollection(tags, (i) => ({ id: `TAG-${i}`, display_id: `TAG-${i}`, name: `tag-${i}` }), {
    items: "tags",
  });
  const known = new Set(["cursor", "limit", "mode", "sort_by", "name"]);
  server.route("/tags.list", (request, attempt) => {
    if (request.headers.authorization !== `Bearer ${token}`) {
      return { status: 401, headers: { "x-request-id": "req-401" }, body: errorBody("unauthenticated") };
    }
    const unknown = Object.keys((request.json ?? {}) as object).find((field) => !known.has(field));
    if (unknown)
      return { status: 400, body: errorBody("bad_request", { detail: `Unknown field '${unknown}'.` }) };
    return pages(request, attempt);
  });
  server.route("/works.export", () => ({ body: { works: [] } }));
  return { name: "the scripted server", baseUrl: server.url, token, tags, close: () => server.close() };
}
