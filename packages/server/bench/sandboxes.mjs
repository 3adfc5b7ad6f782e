// Benchmark: how long sandboxes.create takes over HTTP, empty and seeded (medians), on SQLite (a file, writes
// on their own thread, as the server runs) and, when DATABASE_URL is set, on PostgreSQL (a schema of its own,
// dropped at the end). The first seeded create also loads the demo data set once into the organization that
// every later seeded sandbox is copied from: it is reported apart. Each sandbox is deleted after it is timed.
// Then `--burst` seeded creates at once (a suite's files starting together), twice: right after the spares
// were used up (each a copy made then), and once the server, idle, has made its spares again
// (WORKAPI_SANDBOX_SPARES, as shipped); each burst's p99 (the slowest of them) and median.
//
//   pnpm --filter @workapi/server bench:sandboxes [--empty 30] [--seeded 10] [--burst 16]
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
  options: {
    empty: { type: "string", default: "30" },
    seeded: { type: "string", default: "10" },
    burst: { type: "string", default: "16" },
  },
});
const counts = { empty: Number(values.empty), seeded: Number(values.seeded), burst: Number(values.burst) };

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
    store,
    spares: config.sandboxSpares,
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

/** Waits (at most a minute) until the server keeps `count` spare seeded sandboxes. */
async function sparesKept(server, count) {
  const until = Date.now() + 60_000;
  const kept = async () =>
    (await server.store.listOrgs()).filter((org) => org.name === "Spare seeded sandbox").length;
  while ((await kept()) < count) {
    if (Date.now() > until)
      throw new Error(`the server made ${await kept()} of its ${count} spares in a minute`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
    const burst = async () => {
      const times = await Promise.all(
        Array.from({ length: counts.burst }, async () => {
          const started = performance.now();
          const { sandbox } = await call(server, "/sandboxes.create", { seed: true });
          return { ms: performance.now() - started, id: sandbox.id };
        }),
      );
      for (const { id } of times) await call(server, "/sandboxes.delete", { id });
      return times.map((t) => t.ms);
    };
    // The spares are used up, then the burst finds none: every sandbox is a copy made then.
    await sparesKept(server, server.spares);
    await Promise.all(
      Array.from({ length: server.spares }, () => call(server, "/sandboxes.create", { seed: true })),
    );
    const copies = await burst();
    await sparesKept(server, server.spares);
    const fromSpares = await burst();
    rows.push({ database, empty, template, seeded, copies, fromSpares });
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
const p99 = (list) => [...list].sort((a, b) => a - b)[Math.ceil(list.length * 0.99) - 1];
console.log(`\n${counts.burst} seeded creates at once (goal: p99 <= 1 s)`);
console.log("database  | no spare left: p99 (median) | spares ready: p99 (median)");
for (const row of rows) {
  console.log(
    `${row.database.padEnd(9)} | ${`${ms(p99(row.copies))} (${ms(median(row.copies))})`.padEnd(27)} | ${ms(p99(row.fromSpares))} (${ms(median(row.fromSpares))})`,
  );
}
