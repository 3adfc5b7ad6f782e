// Load shedding: while the event loop falls behind (its mean delay over the last half second above the
// setting), new requests are answered at once with 503 service_unavailable and Retry-After instead of
// queueing behind the work already there, so the requests that are served keep answering quickly.
import underPressure from "@fastify/under-pressure";
import { apiError } from "../core/errors.js";
import { shared } from "./plugin.js";

export interface SheddingOptions {
  /** Mean event-loop delay (ms) over which requests are shed; 0: never. */
  maxEventLoopDelayMs: number;
  retryAfterS: number;
}

export const shedding = shared<SheddingOptions>(async (fastify, { maxEventLoopDelayMs, retryAfterS }) => {
  if (maxEventLoopDelayMs === 0) return;
  await fastify.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    sampleInterval: 500,
    retryAfter: retryAfterS,
    pressureHandler: async (_request, _reply, type, value) => {
      throw apiError(
        "service_unavailable",
        `The server is overloaded (${type} ${Math.round(Number(value))} ms); retry in ${retryAfterS} seconds.`,
      ).withHeader("retry-after", String(retryAfterS));
    },
  });
});
