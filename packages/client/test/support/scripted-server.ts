// A small scripted HTTP server for the tests (node:http, no framework). Each test says how a path answers;
// the server records every request it gets and answers CORS preflights, so a browser page on another origin
// can call it too.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadSpec, resolveRef } from "@workapi/spec";

// biome-ignore lint/suspicious/noExplicitAny: the bundled contract is read as plain JSON
const spec: any = loadSpec();

/** A GET's query as the fields it carries, each typed by the path's query parameter of that name. */
function queryFields(path: string, search: URLSearchParams): Record<string, unknown> {
  const parameters = (spec.paths[path]?.get?.parameters ?? []).map((entry: unknown) =>
    resolveRef(spec, entry),
  );
  const typeOf = (schema: unknown) => (resolveRef(spec, schema) as { type?: string } | undefined)?.type;
  const scalar = (type: string | undefined, text: string) =>
    type === "integer" || type === "number" ? Number(text) : type === "boolean" ? text === "true" : text;
  const fields: Record<string, unknown> = {};
  for (const [name, text] of search) {
    const schema = resolveRef(spec, parameters.find((p: { name: string }) => p.name === name)?.schema) as
      | { type?: string; items?: unknown }
      | undefined;
    fields[name] =
      schema?.type === "array"
        ? text.split(",").map((item) => scalar(typeOf(schema.items), item))
        : scalar(schema?.type, text);
  }
  return fields;
}

export interface Recorded {
  method: string;
  path: string;
  /** The query string without `?` ("" when none). */
  query: string;
  headers: IncomingMessage["headers"];
  /** The raw body text. */
  body: string;
  /**
   * The call's fields: the body parsed as JSON, when it is JSON; for a GET with a query, the query read as the
   * contract's parameters of that path say (lists split at commas, integers and booleans as such).
   */
  json: unknown;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as it is (with the content type given in `headers`). */
  body?: unknown;
  /** Wait this long before answering. */
  delay?: number;
}

/** How a path answers: a reply, or "drop" to cut the connection without an answer (a network error). */
export type Handler = (request: Recorded, attempt: number) => Reply | "drop" | Promise<Reply | "drop">;

export interface ScriptedServer {
  /** The origin, e.g. http://127.0.0.1:41234. */
  url: string;
  /** Every request but the CORS preflights, in order. */
  requests: Recorded[];
  /** The CORS preflights (OPTIONS) the server answered. */
  preflights: Recorded[];
  /** Sets how `path` answers (replacing what it did before); unknown paths answer 404 not_found. */
  route(path: string, handler: Handler): void;
  /** Forgets the routes and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "x-request-id, retry-after",
};

/** A JSON error body of the interface. */
export const errorBody = (type: string, extra: Record<string, unknown> = {}) => ({
  type,
  message: `A scripted ${type}.`,
  detail: `The test server answered ${type}.`,
  ...extra,
});

export async function startScriptedServer(): Promise<ScriptedServer> {
  const routes = new Map<string, Handler>();
  const attempts = new Map<string, number>();
  const requests: Recorded[] = [];
  const preflights: Recorded[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://localhost");
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    if (req.method === "GET" && url.search) json = queryFields(url.pathname, url.searchParams);
    const recorded: Recorded = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.search.slice(1),
      headers: req.headers,
      body,
      json,
    };
    if (req.method === "OPTIONS") {
      preflights.push(recorded);
      res.writeHead(204, {
        ...CORS,
        "access-control-allow-methods": "GET, POST",
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
        "access-control-max-age": "0",
      });
      res.end();
      return;
    }
    requests.push(recorded);
    const attempt = (attempts.get(url.pathname) ?? 0) + 1;
    attempts.set(url.pathname, attempt);
    const handler = routes.get(url.pathname);
    const reply = handler
      ? await handler(recorded, attempt)
      : { status: 404, body: errorBody("not_found", { detail: `No route ${url.pathname}.` }) };
    if (reply === "drop") {
      req.socket.destroy();
      return;
    }
    if (reply.delay) await new Promise((resolve) => setTimeout(resolve, reply.delay));
    const isText = typeof reply.body === "string";
    const text = reply.body === undefined ? "" : isText ? (reply.body as string) : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, {
      ...CORS,
      ...(reply.body !== undefined && !isText ? { "content-type": "application/json" } : {}),
      ...reply.headers,
    });
    res.end(text);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, CORS);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    preflights,
    route(path, handler) {
      routes.set(path, handler);
      attempts.delete(path);
    },
    reset() {
      routes.clear();
      attempts.clear();
      requests.length = 0;
      preflights.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/**
 * A cursor-paginated collection: `count` records made by `make(i)` (i from 1), answered under `items` with
 * the cursor fields `next` and `prev`. `after` pages run forward from the cursor (the start without one),
 * `before` pages run backward from it (the end without one); each page keeps the records in order.
 */
export function pagedCollection(
  count: number,
  make: (i: number) => Record<string, unknown>,
  shape: { items: string; next?: string; prev?: string } = { items: "items" },
): Handler {
  const records = Array.from({ length: count }, (_, index) => make(index + 1));
  const encode = (index: number) => Buffer.from(JSON.stringify({ at: index })).toString("base64url");
  const decode = (cursor: string) =>
    (JSON.parse(Buffer.from(cursor, "base64url").toString()) as { at: number }).at;
  return (request) => {
    const body = (request.json ?? {}) as { cursor?: string; limit?: number; mode?: string };
    const limit = body.limit ?? 50;
    const page: Record<string, unknown> = {};
    if (body.mode === "before") {
      const end = body.cursor ? decode(body.cursor) : records.length;
      const start = Math.max(0, end - limit);
      page[shape.items] = records.slice(start, end);
      if (start > 0) page[shape.prev ?? "prev_cursor"] = encode(start);
      if (end < records.length) page[shape.next ?? "next_cursor"] = encode(end);
    } else {
      const start = body.cursor ? decode(body.cursor) : 0;
      const end = Math.min(records.length, start + limit);
      page[shape.items] = records.slice(start, end);
      if (end < records.length) page[shape.next ?? "next_cursor"] = encode(end);
      if (start > 0) page[shape.prev ?? "prev_cursor"] = encode(start);
    }
    return { body: page };
  };
}
