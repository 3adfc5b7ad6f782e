// Closed loops against the server as shipped and against the same server with shedding off, in one run: each
// caller (an autocannon connection) sends its next request when its answer came, as a test suite, an import
// script or a user's load test does. Such a load is at most the server's capacity, never over it, so shedding
// must cost it nothing: the goal is 2xx a second as shipped >= 0.9x of the same server with shedding off
// (0.8x with a CPU-bound process beside them), and no refusal at all where the server with shedding off
// answers within the delay goal (its p99 <= 20 ms). Runs of the two servers are interleaved in pairs, the
// order swapped every pair, and the ratio is the median pair's (a busy moment of the machine falls on both
// runs of a pair alike).
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { median } from "./measure.mjs";

const DELAY_GOAL_MS = 20;

/** One autocannon run: 2xx a second, non-2xx answers (503s among them), errors and the p99 of all answers. */
async function closedLoop(server, target, connections, duration) {
  const result = await autocannon({
    url: `${server.url}${target.path}`,
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify(target.body),
    connections,
    duration,
  });
  const seconds = result.duration;
  return {
    okRps: result["2xx"] / seconds,
    refused: result.statusCodeStats?.["503"]?.count ?? 0,
    other: result.non2xx - (result.statusCodeStats?.["503"]?.count ?? 0),
    errors: result.errors + result.timeouts,
    p99: result.latency.p99,
  };
}

/** A process that keeps one core busy until it is killed. */
function cpuHog() {
  return spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
}

/**
 * Every row of `rows` (`{ target, connections, hog }`) against `shipped` and `off`, `repetitions` times for
 * `duration` s each; returns the rows with both servers' medians and the verdicts.
 */
export async function closedLoopRows({ shipped, off, rows, duration, repetitions, log }) {
  const results = [];
  for (const row of rows) {
    const runs = { shipped: [], off: [] };
    const hog = row.hog ? cpuHog() : undefined;
    try {
      for (let repetition = 0; repetition < repetitions; repetition++) {
        const order = repetition % 2 === 0 ? ["shipped", "off"] : ["off", "shipped"];
        for (const side of order) {
          const server = side === "shipped" ? shipped : off;
          runs[side].push(await closedLoop(server, row.target, row.connections, duration));
        }
      }
    } finally {
      hog?.kill("SIGKILL");
    }
    const pick = (side, key) => median(runs[side].map((run) => run[key]));
    const result = {
      name: `${row.target.name}, ${row.connections} connections${row.hog ? ", a CPU hog beside" : ""}`,
      shippedRps: pick("shipped", "okRps"),
      offRps: pick("off", "okRps"),
      refused: runs.shipped.reduce((sum, run) => sum + run.refused, 0),
      failures: [...runs.shipped, ...runs.off].reduce((sum, run) => sum + run.other + run.errors, 0),
      shippedP99: pick("shipped", "p99"),
      offP99: pick("off", "p99"),
      goal: row.hog ? 0.8 : 0.9,
    };
    result.ratio = median(runs.shipped.map((run, i) => run.okRps / Math.max(1, runs.off[i].okRps)));
    // Where the server with shedding off answered within the delay goal, the shipped one refuses nothing.
    result.mustNotRefuse = result.offP99 <= DELAY_GOAL_MS;
    result.pass = result.ratio >= result.goal && !(result.mustNotRefuse && result.refused > 0);
    log?.(
      `  ${result.name}: shipped ${Math.round(result.shippedRps)}/s (503 ${result.refused}), ` +
        `shedding off ${Math.round(result.offRps)}/s, ${result.ratio.toFixed(2)}x`,
    );
    results.push(result);
  }
  return results;
}

export function printClosedLoops(results, { duration, repetitions }) {
  console.log(
    `\nclosed loops (autocannon; ${duration} s per run, ${repetitions} interleaved pairs: medians, and the ` +
      "median pair's ratio): the server as " +
      "shipped against the same server with WORKAPI_MAX_EVENT_LOOP_DELAY_MS=0 (shedding off); both with the " +
      "rate limit and the per-address connection limit lifted (the load comes from one address)",
  );
  const header = ["load", "shipped 2xx/s", "503", "p99", "shedding off 2xx/s", "p99", "ratio", "goal", ""];
  const lines = results.map((r) => [
    r.name,
    String(Math.round(r.shippedRps)),
    String(r.refused),
    `${r.shippedP99} ms`,
    String(Math.round(r.offRps)),
    `${r.offP99} ms`,
    `${r.ratio.toFixed(2)}x`,
    `>= ${r.goal}x${r.mustNotRefuse ? ", no 503" : ""}`,
    r.pass ? "pass" : "FAIL",
  ]);
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  for (const row of all) console.log(row.map((cell, i) => cell.padStart(widths[i])).join("  "));
  const failures = results.reduce((sum, r) => sum + r.failures, 0);
  if (failures > 0) console.log(`answers neither 2xx nor 503, and connection errors: ${failures}`);
}
