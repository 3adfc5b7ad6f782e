// The reference server `pnpm dev` runs on the contract being edited: packages/server/dist/cli.js serve, on
// SQLite in the dev data folder (seeded on its first start), reading the bundle `pnpm dev` writes
// (WORKAPI_SPEC_DIR), restarted when the bundle changes. Its admin token is the dev folder's own, kept there,
// so the docs page's console can be handed it.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** The dev folder's admin token, made on first use. */
export function devToken(devDir) {
  const file = join(devDir, "admin-token");
  if (!existsSync(file)) {
    mkdirSync(devDir, { recursive: true });
    writeFileSync(file, randomBytes(24).toString("hex"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

/** Stops `running` (SIGTERM, SIGKILL after 3 s); answers its exit, which leaves `exiting` once it is over. */
function terminate(running, exiting) {
  const exited = new Promise((resolve) => running.once("exit", resolve));
  running.kill("SIGTERM");
  const slow = setTimeout(() => running.kill("SIGKILL"), 3000);
  const over = exited.then(() => {
    clearTimeout(slow);
    exiting.delete(over);
  });
  return over;
}

/**
 * A restartable reference server: { start(), restart(), stop(), close(), url }. `log` gets its failures.
 * `close()` stops it for good: it waits for every server it started to exit (one a restart stopped may still
 * be writing its data folder), and no start after it spawns one.
 */
export function apiServer({ repo, devDir, specDir, port, token, log }) {
  let child;
  let closed = false;
  /** The exits of the servers told to stop that have not exited yet. */
  const exiting = new Set();
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running && running.exitCode === null) exiting.add(terminate(running, exiting));
    await Promise.all(exiting);
  };
  // The dev server keeps its data in the dev folder, on SQLite, with its own limits: a DATABASE_URL or REDIS_URL
  // of the author's shell (a CI job's, say) would point it at a shared database whose first organization is
  // not the dev token's.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const start = async () => {
    if (closed) return false;
    let output = "";
    const started = spawn(
      process.execPath,
      [join(repo, "packages/server/dist/cli.js"), "serve", "--port", String(port)],
      {
        env: {
          ...inherited,
          WORKAPI_DATA_DIR: join(devDir, "data"),
          WORKAPI_SPEC_DIR: specDir,
          WORKAPI_ADMIN_TOKEN: token,
          WORKAPI_SEED: "1",
          LOG_LEVEL: "warn",
          NODE_ENV: "development",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = started;
    // Below the dev loop's priority: a restart (a second or two of CPU) yields to the next save's regeneration
    // and the page's reload.
    try {
      setPriority(started.pid, 10);
    } catch {
      // Not allowed here: it runs at the same priority.
    }
    for (const stream of [started.stdout, started.stderr])
      stream.on("data", (chunk) => {
        output = (output + chunk).slice(-4000);
      });
    // Answering the contract's own document says it is up (the docs routes need no token).
    for (let waited = 0; waited < 20_000; waited += 100) {
      if (started.exitCode !== null) {
        log(`the reference server stopped at start:\n${output.trim()}`);
        return false;
      }
      try {
        if ((await fetch(`${url}/openapi.json`)).ok) return true;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    log(`the reference server did not answer within 20 s:\n${output.trim()}`);
    return false;
  };
  return {
    url,
    start,
    stop,
    async close() {
      closed = true;
      await stop();
    },
    async restart() {
      await stop();
      return start();
    },
  };
}
