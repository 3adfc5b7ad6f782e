// A bounded soak run for manual use: starts the built server as a child process on a fresh data directory (or
// on the database in DATABASE_URL when it is set: the run's records stay there), drives it with concurrent writers and readers for --minutes, and prints the
// server's resident memory (RSS) and the request counts every --every seconds, then a summary.
//   pnpm soak --minutes 5 --concurrency 16 --every 10
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "2" },
    concurrency: { type: "string", default: "16" },
    every: { type: "string", default: "10" },
  },
});
const minutes = Number(values.minutes);
const concurrency = Number(values.concurrency);
const every = Number(values.every);
for (const [name, value] of Object.entries({ minutes, concurrency, every })) {
  if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
}

const cli = new URL("../dist/cli.js", import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), "workapi-soak-"));
const env = { ...process.env, WORKAPI_DATA_DIR: dataDir, WORKAPI_RATE_LIMIT_MAX: "1000000000" };
const scopes = "tag:all,product:all,issue:all,dev_user:read";
const { stdout } = await promisify(execFile)(process.execPath, [cli, "token", "create", "--scopes", scopes], {
  env,
});
const token = stdout.trim();

const child = spawn(
  process.execPath,
  [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "warn"],
  {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const url = await new Promise((resolve, reject) => {
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += String(chunk);
    const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
    if (found) resolve(found);
  });
  child.once("exit", (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
});

/** The child's resident set size in MiB, from /proc (Linux), or NaN elsewhere. */
function rssMiB() {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

async function post(path, body) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const self = (await post("/dev-users.self", {})).body.dev_user.id;
const part = (await post("/parts.create", { type: "product", name: "soak", owned_by: [self] })).body.part.id;

const run = randomBytes(3).toString("hex");
const counts = { requests: 0, ok: 0, clientErrors: 0, serverErrors: 0, failed: 0 };
const started = Date.now();
const deadline = started + minutes * 60_000;
const rss = [];

// Each worker mixes writes (tags, works) and reads (lists with paging, gets).
async function worker(n) {
  for (let i = 0; Date.now() < deadline; i++) {
    try {
      let answer;
      switch (i % 4) {
        case 0:
          answer = await post("/tags.create", { name: `soak-${run}-${n}-${i}` });
          break;
        case 1:
          answer = await post("/works.create", {
            type: "issue",
            title: `soak ${n} ${i}`,
            applies_to_part: part,
            owned_by: [self],
          });
          break;
        case 2:
          answer = await post("/works.list", { limit: 50 });
          break;
        default:
          answer = await post("/tags.list", { limit: 50 });
      }
      counts.requests++;
      if (answer.status >= 500) counts.serverErrors++;
      else if (answer.status >= 400) counts.clientErrors++;
      else counts.ok++;
    } catch {
      counts.failed++;
    }
  }
}

function report() {
  const elapsed = (Date.now() - started) / 1000;
  const mib = rssMiB();
  rss.push(mib);
  console.log(
    `${elapsed.toFixed(0).padStart(5)} s  rss ${mib.toFixed(1).padStart(7)} MiB  requests ${counts.requests}  ` +
      `2xx ${counts.ok}  4xx ${counts.clientErrors}  5xx ${counts.serverErrors}  failed ${counts.failed}  ` +
      `${elapsed > 0 ? (counts.requests / elapsed).toFixed(0) : 0} req/s`,
  );
}

console.log(`soak: ${minutes} min, ${concurrency} workers, against ${url} (data in ${dataDir})`);
report();
const timer = setInterval(report, every * 1000);
await Promise.all(Array.from({ length: concurrency }, (_, n) => worker(n)));
clearInterval(timer);
report();
const first = rss.find((v) => !Number.isNaN(v)) ?? Number.NaN;
console.log(
  `done: ${counts.requests} requests, ${counts.serverErrors} answered 5xx, ${counts.failed} failed; ` +
    `rss ${first.toFixed(1)} -> ${rss[rss.length - 1].toFixed(1)} MiB (max ${Math.max(...rss).toFixed(1)})`,
);
const exited = new Promise((resolve) => child.once("exit", resolve));
child.kill("SIGTERM");
await exited;
rmSync(dataDir, { recursive: true, force: true });
process.exitCode = counts.serverErrors > 0 || counts.failed > 0 ? 1 : 0;
