// Browsers on the configured origins may call the API (preflights answered by @fastify/cors); with no origin
// configured, no CORS headers are sent and OPTIONS is one of the methods a path refuses with 405.
import cors from "@fastify/cors";
import { shared } from "./plugin.js";

export const crossOrigin = shared<{ origins: string[] }>(async (fastify, { origins }) => {
  if (origins.length === 0) return;
  await fastify.register(cors, {
    origin: origins.includes("*") ? true : origins,
    methods: ["GET", "POST"],
    allowedHeaders: ["authorization", "content-type", "x-request-id", "x-vendor-version", "prefer"],
    exposedHeaders: [
      "x-request-id",
      "retry-after",
      "x-ratelimit-limit",
      "x-ratelimit-remaining",
      "x-ratelimit-reset",
      // What the contract deprecates (./deprecation.ts), for clients in a browser to warn about.
      "deprecation",
      "sunset",
      "link",
      // An operation the server answers only with its documented examples (./example-only.ts).
      "x-workapi-example-only",
    ],
    maxAge: 600,
  });
});
