// The floor of load shedding on this machine: a bare Node HTTP server that answers every request with the
// same prebuilt 503 the server sheds with (the same bytes and headers), and does nothing else. Whatever it
// cannot answer at an offered rate, no shedding server can: bench/shedding.mjs offers it the same loads.
//
//   node bench/refusing-peer.mjs <port> <body.json>
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [port, file] = process.argv.slice(2);
if (!port || !file) throw new Error("usage: refusing-peer.mjs <port> <body.json>");
const body = readFileSync(file);
const headers = {
  "content-type": "application/json; charset=utf-8",
  "content-length": body.length,
  "retry-after": "2",
  "cache-control": "no-store",
};
const server = createServer((_request, response) => {
  response.writeHead(503, headers);
  response.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(port), "127.0.0.1");
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => server.close(() => process.exit(0)));
