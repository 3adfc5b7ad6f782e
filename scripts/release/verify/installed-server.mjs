// @workapi/server installed with npm and started with `npx workapi-server serve`: its banner, its admin token,
// and its /docs, which must be the page of the installed @workapi/docs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, startDaemon, waitFor } from "./processes.mjs";
import { fail, summary } from "./state.mjs";

export async function startInstalledServer(dir, env, pageOrigin) {
  const port = await freePort();
  const daemon = startDaemon(
    "npx",
    ["workapi-server", "serve", "--host", "127.0.0.1", "--port", String(port)],
    {
      cwd: dir,
      env: {
        ...env,
        NODE_ENV: "production",
        WORKAPI_DATA_DIR: join(dir, "data"),
        WORKAPI_CORS_ORIGINS: pageOrigin,
        DATABASE_URL: "",
        REDIS_URL: "",
      },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    "npx workapi-server serve",
    async () => (await fetch(`${url}/docs`)).ok,
    60_000,
    daemon.output,
  );
  const banner = daemon.output();
  if (!banner.includes(`listening on ${url}`))
    fail(`the start banner should name the address the server listens on (${url}):\n${banner}`);
  const token = readFileSync(join(dir, "data", "admin-token"), "utf8").trim();
  if (!banner.includes(token)) fail(`the first start should print the admin token:\n${banner}`);
  const docs = await (await fetch(`${url}/docs`)).text();
  const installedDocs = readFileSync(join(dir, "node_modules/@workapi/docs/index.html"), "utf8");
  if (docs !== installedDocs) fail("GET /docs is not the page of the installed @workapi/docs");
  summary.push(`npx workapi-server serve: listening on ${url}, /docs is the installed @workapi/docs page`);
  return { url, token };
}
