// Headless Chromium for the browser tests: the built ESM bundled with openapi-fetch for the browser, served
// from its own origin, so that the page calls the interface across origins. Never downloads a browser.
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type * as Client from "@workapi/client";
import { build } from "esbuild";
import { type Browser, chromium } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../../../../scripts/chromium.mjs";

/** The bundle the test pages load puts the client module on `window.workapi`. */
declare global {
  interface Window {
    workapi: typeof Client;
  }
}

const distEntry = fileURLToPath(new URL("../../dist/index.js", import.meta.url));

/** The built ESM (dist/index.js) with openapi-fetch, as one browser module. */
export async function bundleForBrowser(): Promise<string> {
  if (!existsSync(distEntry))
    throw new Error("dist/index.js is missing: run `pnpm --filter @workapi/client build`");
  const { outputFiles } = await build({
    entryPoints: [distEntry],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return outputFiles[0]?.text ?? "";
}

export interface Page {
  url: string;
  close(): Promise<void>;
}

/** Serves a page at / that imports the bundle from /client.js and exposes it as `window.workapi`. */
export async function servePage(bundle: string): Promise<Page> {
  const html =
    '<!doctype html><meta charset="utf-8"><title>workapi client</title>' +
    '<script type="module">import * as client from "/client.js"; window.workapi = client;</script>';
  const server = createServer((req, res) => {
    if (req.url === "/client.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(bundle);
    } else if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(html);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // `localhost` here and 127.0.0.1 for the scripted server: two origins.
    url: `http://localhost:${port}/`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
  });
}
