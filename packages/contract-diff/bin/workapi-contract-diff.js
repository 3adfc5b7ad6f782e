#!/usr/bin/env node
import { main } from "../src/cli.js";

// A reader that stops early (`| head`) is not an error.
process.stdout.on("error", (err) => {
  if (err.code !== "EPIPE") throw err;
});
process.exitCode = await main(process.argv.slice(2));
