// The installed client bundled with esbuild into a page that headless Chromium runs against the installed server.

import { readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../chromium.mjs";
import { fail, log, summary } from "./state.mjs";

/** Bundles the installed client into `dir`/bundle.js, as a page's script that sets `window.workapi`. */
async function bundleClient(dir) {
  await build({
    absWorkingDir: dir,
    stdin: {
      contents: `import { createClient } from "@workapi/client";\nwindow.workapi = { createClient };\n`,
      resolveDir: dir,
    },
    bundle: true,
    format: "iife",
    platform: "browser",
    outfile: join(dir, "bundle.js"),
    logLevel: "error",
  });
}

/** Serves `html` at `pageOrigin` from a loopback server; answers the function that closes it. */
async function servePage(html, pageOrigin) {
  const site = createHttpServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(html);
  });
  await new Promise((done) => site.listen(Number(new URL(pageOrigin).port), "127.0.0.1", done));
  return () => new Promise((done) => site.close(done));
}

/** Runs the bundled client in headless Chromium, from a page at `pageOrigin`, against `server`. */
export async function browserCheck(dir, server, pageOrigin) {
  if (!browserAvailable("the release's browser check")) {
    summary.push("browser check skipped: no Chromium on this machine");
    return;
  }
  await bundleClient(dir);
  let closePage;
  const executablePath = chromiumPath;
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const script = readFileSync(join(dir, "bundle.js"), "utf8");
    // The page comes from an origin of its own, a real loopback server as a site's would be (Chromium lets
    // only pages it loaded from the loopback address space call loopback servers).
    const html = `<!doctype html><script>${script.replace(/<\/script/gi, "<\\/script")}</script>`;
    closePage = await servePage(html, pageOrigin);
    await page.goto(`${pageOrigin}/`);
    const result = await page.evaluate(
      async ({ baseUrl, token }) => {
        const api = window.workapi.createClient({ baseUrl, token });
        const created = await api.tags.create({ name: `browser-${Date.now()}` }, { throwOnError: true });
        const { data } = await api.tags.list({ limit: 100 }, { throwOnError: true });
        return { id: created.data.tag.id, listed: data.tags.some((tag) => tag.id === created.data.tag.id) };
      },
      { baseUrl: server.url, token: server.token },
    );
    if (!result.listed || errors.length > 0)
      fail(`the browser page failed: ${JSON.stringify({ result, errors })}`);
    log(`browser: created and listed ${result.id}`);
    summary.push(
      `esbuild bundle of the installed client ran in headless Chromium (${executablePath}) against the server`,
    );
  } finally {
    await browser.close();
    await closePage?.();
  }
}
