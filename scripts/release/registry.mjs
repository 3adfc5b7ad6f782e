#!/usr/bin/env node
// Runs Verdaccio from its programmatic API: node scripts/release/registry.mjs <config.yaml> <host> <port>.
// Its command line refuses Node versions below 22 before starting, while the server itself runs on the
// project's Node 20.19+; release:verify starts this in its own process group and stops it when done.
import { runServer } from "verdaccio";

const [config, host, port] = process.argv.slice(2);
if (!config || !host || !port) {
  process.stderr.write("usage: registry.mjs <config.yaml> <host> <port>\n");
  process.exit(2);
}
const app = await runServer(config);
app.listen(Number(port), host, () =>
  process.stdout.write(`verdaccio listening on http://${host}:${port}/\n`),
);
