// What the server asks of a connection, so that no client holds one for long: every wait is bounded (the
// request's headers, the whole request, a kept-alive connection's next request, a connection silent both
// ways), one client address holds a bounded number of connections at once, an HTTP/1.1 request carries a
// Host header, and an answer sent before the request's body was read (a 413) closes the connection only after
// the rest of the body was read and discarded for a bounded time, so that its sender reads the answer.
import type { Socket } from "node:net";
import type { ServerConfig } from "../config.js";
import { apiError } from "../core/errors.js";
import { answerOnSocket } from "./error-handler.js";
import { shared } from "./plugin.js";

/** The most bytes of a refused body read and discarded before its connection is closed anyway. */
export const DISCARD_MAX_BYTES = 64 * 1024 * 1024;

type Bounds = Pick<
  ServerConfig,
  "headersTimeoutMs" | "requestTimeoutMs" | "keepAliveTimeoutMs" | "idleTimeoutMs"
>;

/** Fastify's and Node's server options that bound each wait for a client. */
export function connectionOptions({
  headersTimeoutMs,
  requestTimeoutMs,
  keepAliveTimeoutMs,
  idleTimeoutMs,
}: Bounds) {
  // Node refuses a header timeout longer than the request's; the request's then bounds both.
  const headersTimeout =
    requestTimeoutMs > 0 && (headersTimeoutMs === 0 || headersTimeoutMs > requestTimeoutMs)
      ? requestTimeoutMs
      : headersTimeoutMs;
  // Node checks the two timeouts every `connectionsCheckingInterval` ms (30 s by default): often enough here
  // that a timeout ends within a few percent of its setting.
  const shortest = Math.min(...[headersTimeout, requestTimeoutMs].filter((ms) => ms > 0), 4000);
  return {
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionTimeout: idleTimeoutMs,
    http: {
      headersTimeout,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.floor(shortest / 4)),
      // Node answers a missing Host with a bare 400; the onRequest hook below answers it typed.
      requireHostHeader: false,
    },
  };
}

export interface ConnectionOptions {
  maxConnectionsPerAddress: number;
  discardTimeoutMs: number;
}

export const connections = shared<ConnectionOptions>(async (fastify, options) => {
  const refused = limitPerAddress(fastify.server, options.maxConnectionsPerAddress);
  // Callback hooks, not async ones: they run on every request, and an async hook costs a promise each time.
  fastify.addHook("onRequest", (request, reply, done) => {
    if (refused.has(request.raw.socket)) {
      reply.hijack(); // already answered on the connection itself, which closes
      done();
      return;
    }
    if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
      done(
        apiError(
          "bad_request",
          "An HTTP/1.1 request must carry a Host header; send Host: with the server's name and port.",
        ),
      );
      return;
    }
    done();
  });
  fastify.addHook("onSend", (request, reply, payload, done) => {
    if (!request.raw.complete) {
      reply.header("connection", "close");
      discardBeforeClosing(request.raw.socket, options.discardTimeoutMs);
    }
    done(null, payload);
  });
});

/**
 * Counts the connections of each client address; one over `max` (unless 0) is answered a typed 429 at once
 * and closed. Returns the refused connections, whose requests are not served.
 */
function limitPerAddress(
  server: { prependListener(event: "connection", listener: (socket: Socket) => void): unknown },
  max: number,
): WeakSet<Socket> {
  const refused = new WeakSet<Socket>();
  if (max === 0) return refused;
  const open = new Map<string, number>();
  server.prependListener("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      refused.add(socket);
      const failure = apiError(
        "too_many_requests",
        `This client address holds ${max} connections already; reuse them or close some, then retry.`,
        { retry_after: 1 },
      );
      answerOnSocket(socket, 429, failure, { "retry-after": "1" });
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
  return refused;
}

const discarding = new WeakSet<Socket>();

/**
 * Node ends an answer that closes its connection with socket.destroySoon(): the unread rest of the body then
 * resets the connection, and the client, still sending, often loses the answer with it. Here the connection
 * is half-closed after the answer instead, and what the client still sends is read and discarded until it
 * closes its side, DISCARD_MAX_BYTES were read, or `timeoutMs` passed.
 */
function discardBeforeClosing(socket: Socket, timeoutMs: number): void {
  if (discarding.has(socket) || socket.destroyed) return;
  discarding.add(socket);
  socket.destroySoon = () => {
    socket.end();
    let read = 0;
    const destroy = () => socket.destroy();
    socket.on("data", (chunk: Buffer) => {
      read += chunk.length;
      if (read > DISCARD_MAX_BYTES) destroy();
    });
    socket.once("end", destroy);
    setTimeout(destroy, timeoutMs).unref();
    socket.resume();
  };
}
