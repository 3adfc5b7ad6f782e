// The first step of every request: it is given its id (echoed as x-request-id), and while the server shuts
// down it is refused with 503 and every answer closes its connection, so keep-alive clients let go.
import { apiError } from "../core/errors.js";
import { shared } from "./plugin.js";

export const shutdown = shared(async (fastify) => {
  let closing = false;
  // Callback hooks, not async ones: they run on every request, and an async hook costs a promise each time.
  fastify.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    if (!closing) return done();
    reply.header("connection", "close");
    done(apiError("service_unavailable", "The server is shutting down; retry shortly."));
  });
  fastify.addHook("preClose", async () => {
    closing = true;
  });
  fastify.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
});
