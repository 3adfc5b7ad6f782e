import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { parallelSuite, percentileOf } from "./parallel-suite.mjs";
const cli = "/work/main/packages/server/dist/cli.js";
const db = process.argv[2] ?? "sqlite";
const sizes = (process.argv[3] ?? "8,16,32").split(",").map(Number);
const dataDir = mkdtempSync(join(tmpdir(), "ps-"));
let dbUrl = "";
let name;
if (db === "postgres") {
  name = `ps_${Date.now()}`;
  const c = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/test" }); await c.connect(); await c.query(`create database ${name}`); await c.end();
  dbUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
}
const env = { ...process.env, WORKAPI_DATA_DIR: dataDir, DATABASE_URL: dbUrl, REDIS_URL: db === "postgres" ? "redis://127.0.0.1:6379" : "" };
execFileSync(process.execPath, [cli, "org", "create", "--name", "ops", "--token-file", join(dataDir, "tok")], { env });
const token = readFileSync(join(dataDir, "tok"), "utf8").trim();
const child = spawn(process.execPath, [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "error"], { env, stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise((res) => { let out = ""; child.stdout.on("data", (d) => { out += d; const m = /listening on (http:\/\/\S+)/.exec(out); if (m) res(m[1]); }); });
// warm: template
await parallelSuite({ url, token, files: 1, rounds: 1 });
for (const files of sizes) {
  const t = performance.now();
  const r = await parallelSuite({ url, token, files });
  console.log(db, files, "files:", r.requests, "req;", r.refused, "503;", r.serverErrors, "5xx;", r.unexpected.length, "unexpected", JSON.stringify(r.unexpected.slice(0,5)), "create p50/p99", percentileOf(r.createMs,50).toFixed(0), percentileOf(r.createMs,99).toFixed(0), "ms; all p99", percentileOf(r.ms,99).toFixed(0), "wall", ((performance.now()-t)/1000).toFixed(1), "s");
}
// burst then one
for (const seed of [false, true]) {
  let refused = 0;
  for (let i = 0; i < 5; i++) {
    const n = seed ? 8 : 20;
    const made = await Promise.all(Array.from({ length: n }, () => fetch(`${url}/sandboxes.create`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ seed }) }).then(async (r) => ({ s: r.status, b: await r.json() }))));
    const ok = made.filter((m) => m.s === 201);
    const one = await fetch(`${url}/works.list?limit=5`, { headers: { authorization: `Bearer ${ok[0].b.sandbox.token}` } });
    if (one.status !== 200) refused++;
    await one.text();
    if (made.some((m) => m.s !== 201)) console.log("burst statuses", made.map((m) => m.s).join(","));
    await Promise.all(ok.map((m) => fetch(`${url}/sandboxes.delete`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ id: m.b.sandbox.id }) }).then((r) => r.text())));
  }
  console.log(db, `burst of ${seed ? "8 seeded" : "20 empty"} then one: ${refused}/5 refused`);
}
child.kill("SIGTERM");
await new Promise((r) => child.once("exit", r));
if (name) { const c = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/test" }); await c.connect(); await c.query(`drop database ${name} with (force)`); await c.end(); }
