// The limit the server is measured against: a bare Fastify app that answers each captured request with the
// exact bytes and content type the workapi server gave for it, and does nothing else (no auth, no database,
// no logging, no validation). Started by bench/run.mjs as a child process.
//
//   node bench/bare-peer.mjs <routes.json> <port>
//
// routes.json: { "routes": [{ "url": "/works.get?id=...", "contentType": "...", "body": "<base64>" }] }
import { readFileSync } from "node:fs";
import Fastify from "fastify";

const [file, port] = process.argv.slice(2);
if (!file || !port) throw new Error("usage: bare-peer.mjs <routes.json> <port>");
const { routes } = JSON.parse(readFileSync(file, "utf8"));
const byUrl = new Map(
  routes.map((route) => [route.url, { type: route.contentType, body: Buffer.from(route.body, "base64") }]),
);

const app = Fastify();
for (const pathname of new Set(routes.map((route) => route.url.split("?")[0]))) {
  app.get(pathname, (request, reply) => {
    const hit = byUrl.get(request.url);
    if (!hit) return reply.code(404).send();
    return reply.type(hit.type).send(hit.body);
  });
}
await app.listen({ port: Number(port), host: "127.0.0.1" });
for (const signal of ["SIGTERM", "SIGINT"])
  process.once(signal, () => app.close().then(() => process.exit(0)));
