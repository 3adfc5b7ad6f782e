// Benchmark: how long sandboxes.create takes over HTTP, empty and seeded (medians), on SQLite (a file, writes
// on their own thread, as the server runs) and, when DATABASE_URL is set, on PostgreSQL (a schema of its own,
// dropped at the end). The first seeded create also loads the demo data set once into the organization that
// every later seeded sandbox is copied from: it is reported apart. Each sandbox is deleted after it is timed.
//
//   pnpm --filter @workapi/server bench:sandboxes [--empty 30] [--seeded 10]
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { buildApp } from "../dist/app.js";
import { configFromEnv } from "../dist/config.js";
import { bootstrap } from "../dist/server.js";
import { dropPostgresSchema, openStore } from "../dist/store/open.js";

const { values } = parseArgs({
  options: { empty: { type: "string", default: "30" }, seeded: { type: "string", default: "10" } },
});
const counts = { empty: Number(values.empty), seeded: Number(values.seeded) };

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Starts the server on `database`; answers its URL, admin token and a close(). */
async function start(database) {
  const dataDir = database === "sqlite" ? mkdtempSync(join(tmpdir(), "workapi-bench-sandboxes-")) : undefined;
  const schema = `bench_sandboxes_${randomBytes(4).toString("hex")}`;
  const store = await openStore(
    dataDir ? { dataDir } : { databaseUrl: process.env.DATABASE_URL, postgresSchema: schema },
  );
  const first = await bootstrap(store);
  const config = configFromEnv(
    { NODE_ENV: "production" },
    { port: 0, host: "127.0.0.1", logLevel: "silent", maxEventLoopDelayMs: 0 },
  );
  const app = await buildApp({ config, store, ...(dataDir ? { writeThread: { dataDir } } : {}) });
  const url = await app.fastify.listen({ port: 0, host: "127.0.0.1" });
  return {
    url,
    token: first.issued.secret,
    async close() {
      await app.close();
      await store.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      else await dropPostgresSchema(process.env.DATABASE_URL, schema);
    },
  };
}

async function call(server, path, body) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Times one create (ms) and deletes the sandbox. */
async function timedCreate(server, seed) {
  const started = performance.now();
  const { sandbox } = await call(server, "/sandboxes.create", { seed });
  const ms = performance.now() - started;
  await call(server, "/sandboxes.delete", { id: sandbox.id });
  return ms;
}

const databases = process.env.DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
if (!process.env.DATABASE_URL) console.log("DATABASE_URL is not set: SQLite only");
const rows = [];
for (const database of databases) {
  const server = await start(database);
  try {
    for (let i = 0; i < 3; i++) await timedCreate(server, false); // warm-up
    const empty = [];
    for (let i = 0; i < counts.empty; i++) empty.push(await timedCreate(server, false));
    const template = await timedCreate(server, true);
    const seeded = [];
    for (let i = 0; i < counts.seeded; i++) seeded.push(await timedCreate(server, true));
    rows.push({ database, empty, template, seeded });
  } finally {
    await server.close();
  }
}
const ms = (n) => `${n.toFixed(1)} ms`;
console.log("\nsandboxes.create over HTTP (medians; the first seeded create loads the data set once)");
console.log("database  | empty (median, max)        | seeded (median, max)        | first seeded");
for (const row of rows) {
  console.log(
    `${row.database.padEnd(9)} | ${ms(median(row.empty)).padEnd(9)} (${ms(Math.max(...row.empty))}, n=${row.empty.length})`.padEnd(
      40,
    ) +
      ` | ${ms(median(row.seeded)).padEnd(9)} (${ms(Math.max(...row.seeded))}, n=${row.seeded.length})`.padEnd(
        30,
      ) +
      ` | ${ms(row.template)}`,
  );
}
