// Loads for the shedding benchmark, with undici's connection pool on kept-alive connections (a third of
// node:http's client cost per request: the load generator shares this machine's two cores with the server, and
// at four times the server's pace a heavier client would be the bottleneck). An open loop starts requests at
// a fixed rate whatever the server's pace (a closed loop, autocannon's, sends the next request only when an
// answer came, so the offered load falls as the server slows and its latency hides the wait). Each request is
// timed from the moment it was due, not from when a connection was free: waiting in the client is waiting too.
// The answers are counted apart: 2xx (their latencies: the "served" requests), 503 (and how many carried
// Retry-After), other statuses, errors, and the requests still unanswered when the drain ends; `seconds` runs
// from the first request to the last answer (answers that come after the offered load ended count there).
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { Pool } from "undici";

/** A fresh tally of one load's answers. */
function tally() {
  const figures = { sent: 0, ok: 0, shed: 0, shedWithRetryAfter: 0, other: 0, errors: 0 };
  return { ...figures, served: [], shedMs: [], startedAt: performance.now(), lastAt: performance.now() };
}

const elapsed = (figures) => Math.max(0.001, (figures.lastAt - figures.startedAt) / 1000);

/** Sends `next()` (`{ path, body }`) as a POST and counts its answer in `figures`, timed from `due`. */
function send(client, figures, due, onDone) {
  const { path, body } = client.next();
  client.pool
    .request({ method: "POST", path, headers: client.headers, body: JSON.stringify(body) })
    .then(async ({ statusCode: status, headers, body: answer }) => {
      await answer.dump();
      figures.lastAt = performance.now();
      const ms = figures.lastAt - due;
      if (status >= 200 && status < 300) {
        figures.ok++;
        figures.served.push(ms);
      } else if (status === 503) {
        figures.shed++;
        figures.shedMs.push(ms);
        if (headers["retry-after"]) figures.shedWithRetryAfter++;
      } else figures.other++;
    })
    .catch(() => {
      figures.errors++;
    })
    .finally(onDone);
}

/** The client of one load: its connections (at most `sockets`) and what it sends. */
function clientOf({ url, token, next, sockets }) {
  const pool = new Pool(new URL(url).origin, { connections: sockets, pipelining: 1 });
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  return { pool, headers, next };
}

/** Waits up to `drainMs` for the answers still due, then closes the connections. */
async function drain(client, outstanding, drainMs) {
  const deadline = performance.now() + drainMs;
  while (outstanding() > 0 && performance.now() < deadline) await sleep(10);
  const unanswered = outstanding();
  await client.pool.destroy();
  return unanswered;
}

/**
 * Offers `rate` requests a second for `duration` seconds over at most `sockets` connections, whatever the
 * answers' pace. Returns the tally, `unanswered` (still open after the drain) and `lateMs`, the longest
 * delay of the client itself in starting a request (a saturated load generator shows there).
 */
export async function openLoop({ url, token, next, rate, duration, sockets = 200, drainMs = 10_000 }) {
  const client = clientOf({ url, token, next, sockets });
  const figures = tally();
  const total = Math.round(rate * duration);
  let open = 0;
  let lateMs = 0;
  const started = figures.startedAt;
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      const dueNow = Math.min(total, Math.floor(((now - started) * rate) / 1000) + 1);
      while (figures.sent < dueNow) {
        const due = started + (figures.sent * 1000) / rate;
        lateMs = Math.max(lateMs, now - due);
        figures.sent++;
        open++;
        send(client, figures, due, () => open--);
      }
      if (figures.sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  const unanswered = await drain(client, () => open, drainMs);
  return { ...figures, unanswered, lateMs, offeredSeconds: duration, seconds: elapsed(figures) };
}

/** `connections` callers each sending its next request when the last one was answered, for `duration` s. */
export async function closedLoop({ url, token, next, connections, duration }) {
  const client = clientOf({ url, token, next, sockets: connections });
  const figures = tally();
  const deadline = performance.now() + duration * 1000;
  const caller = async () => {
    while (performance.now() < deadline) {
      figures.sent++;
      await new Promise((done) => send(client, figures, performance.now(), done));
    }
  };
  await Promise.all(Array.from({ length: connections }, caller));
  await client.pool.close();
  return { ...figures, unanswered: 0, lateMs: 0, offeredSeconds: duration, seconds: elapsed(figures) };
}

export const percentile = (values, p) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
