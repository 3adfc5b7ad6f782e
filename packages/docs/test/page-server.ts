// The built page and its console.js served over HTTP, as the reference server serves them (at /docs and
// /console.js), for the browser checks that need an origin (the clipboard is granted per origin).
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { consolePath, docsPath } from "../index.js";

export async function servePage(): Promise<{ origin: string; close: () => Promise<void> }> {
  const files: Record<string, [string, string]> = {
    "/docs": [readFileSync(docsPath, "utf8"), "text/html; charset=utf-8"],
    "/console.js": [readFileSync(consolePath, "utf8"), "text/javascript; charset=utf-8"],
  };
  const server: Server = createServer((request, response) => {
    const file = files[new URL(request.url ?? "/", "http://x").pathname];
    response.writeHead(file ? 200 : 404, { "content-type": file?.[1] ?? "text/plain" });
    response.end(file?.[0] ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
