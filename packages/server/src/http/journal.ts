// The request journal of each sandbox: every authenticated request made with a sandbox's token is kept in
// the database (operation, method, path, query string and JSON body as sent, the status answered, the time it
// arrived; never a header, so never the token), the latest WORKAPI_SANDBOX_JOURNAL_MAX of each sandbox,
// before its answer leaves (a journal read right after an answer holds it). `sandboxes.requests.list`
// reads it. Outside sandboxes nothing is kept.
import type { Store } from "../store/types.js";
import { shared } from "./plugin.js";
import type { SandboxOrgs } from "./sandbox-orgs.js";

export interface JournalOptions {
  store: Store;
  sandboxOrgs: SandboxOrgs;
  /** Requests kept per sandbox (WORKAPI_SANDBOX_JOURNAL_MAX); 0: none. */
  journalMax: number;
}

export const journal = shared<JournalOptions>(async (fastify, { store, sandboxOrgs, journalMax }) => {
  if (journalMax === 0) return;
  fastify.addHook("onSend", async (request, reply, payload) => {
    const operation = request.routeOptions.config.operation;
    if (!operation || !request.auth || !(await sandboxOrgs.isSandbox(request.auth.org.id))) return payload;
    const at = request.url.indexOf("?");
    const json = request.body !== undefined && request.body !== "" && !request.isMultipart();
    await store.sandboxes().journal(
      {
        org_id: request.auth.org.id,
        operation: operation.name,
        method: request.method,
        path: at < 0 ? request.url : request.url.slice(0, at),
        query: at < 0 ? "" : request.url.slice(at + 1),
        body: json ? journalBody(request.body) : null,
        status: reply.statusCode,
        time: new Date(Date.now() - reply.elapsedTime).toISOString(),
      },
      journalMax,
    );
    return payload;
  });
});

/**
 * The body as the journal keeps it, JSON text: a JSON body reaches the routes as its text (the executor parses
 * it), kept as sent when it parses; text that does not parse (answered 400) is kept as a JSON string of itself.
 */
function journalBody(body: unknown): string {
  if (typeof body !== "string") return JSON.stringify(body);
  try {
    JSON.parse(body);
    return body;
  } catch {
    return JSON.stringify(body);
  }
}
