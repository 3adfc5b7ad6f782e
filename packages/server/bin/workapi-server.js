#!/usr/bin/env node
// The `workapi-server` command. A committed file (not dist/cli.js itself) so that installing the workspace
// can link the command before the first build; it runs the built CLI.
try {
  await import("../dist/cli.js");
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/cli.js")) {
    process.stderr.write("workapi-server: dist/cli.js is missing; build the package first (pnpm build)\n");
    process.exit(1);
  }
  throw error;
}
