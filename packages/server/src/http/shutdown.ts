// The first step of every request: it is given its id (echoed as x-request-id), and while the server shuts
// down it is refused with 503 and every answer closes its connection, so keep-alive clients let go.
import { apiError } from "../core/errors.js";
import { shared } from "./plugin.js";

export const shutdown = shared(async (fastify) => {
  let closing = false;
  fastify.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    if (closing) {
      reply.header("connection", "close");
      throw apiError("service_unavailable", "The server is shutting down; retry shortly.");
    }
  });
  fastify.addHook("preClose", async () => {
    closing = true;
  });
  fastify.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });
});
