// Loads for the shedding benchmark. An open loop starts requests at a fixed rate whatever the server's pace (a
// closed loop, autocannon's, sends the next request only when an answer came, so the offered load falls as the
// server slows and its latency hides the wait). Each request is timed from the moment it was due, not from
// when a connection was free: waiting in the client is waiting too. The answers are counted apart: 2xx (their
// latencies: the "served" requests), 503 (and how many carried Retry-After), other statuses, errors, and the
// requests still unanswered when the drain ends; `seconds` runs from the first request to the last answer
// (answers that come after the offered load ended count there).
//
// The client is written here on kept-alive sockets rather than taken from undici (which it used before): the
// load generator shares this machine's two cores with the server, and at four times the server's pace
// undici's pool took 65-75% of a core (17,400 requests a second to bare Node refusing all), the CPU the
// server then lacked. It sends one request at a time per connection (no pipelining, as undici's pool did)
// and reads only what the tally needs: the status, Retry-After, and the body's length to find the next answer.
import { connect } from "node:net";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

const HEAD_END = Buffer.from("\r\n\r\n");

/**
 * One kept-alive HTTP/1.1 connection of a RawPool: it writes a request, reads its answer's head and skips its
 * body (by Content-Length, or chunk by chunk), then takes the pool's next request.
 */
class RawConnection {
  /** The answer's callback of the request on its way, if any. */
  #current;
  /** Bytes read and not yet consumed. */
  #buffer = Buffer.alloc(0);
  /** While an answer's body is skipped: its length, or "chunked" (then skipped chunk by chunk). */
  #body;
  /** The head of the answer on its way: its status, whether it carried Retry-After, whether it closes. */
  #status = 0;
  #retryAfter = false;
  #closeAfter = false;

  constructor(pool) {
    this.pool = pool;
    this.socket = connect({ host: pool.host, port: pool.port });
    this.socket.setNoDelay(true);
    this.socket.on("data", (chunk) => this.#read(chunk));
    this.socket.on("error", () => {});
    this.socket.on("close", () => this.#closed());
  }

  send(bytes, callback) {
    this.#current = callback;
    this.socket.write(bytes);
  }

  #read(chunk) {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    while (this.#current && this.#step()) {}
  }

  /** Consumes what it can of the answer on its way; true when it finished one and more bytes may follow. */
  #step() {
    if (this.#body === undefined) {
      const end = this.#buffer.indexOf(HEAD_END);
      if (end < 0) return false;
      const head = this.#buffer.toString("latin1", 0, end).toLowerCase();
      this.#buffer = this.#buffer.subarray(end + 4);
      this.#status = Number(head.slice(9, 12));
      this.#retryAfter = head.includes("\r\nretry-after:");
      this.#closeAfter = head.includes("\r\nconnection: close");
      const length = /\r\ncontent-length: *(\d+)/.exec(head);
      if (length) this.#body = Number(length[1]);
      else if (head.includes("\r\ntransfer-encoding: chunked")) this.#body = "chunked";
      else this.#body = 0;
    }
    if (this.#body === "chunked") {
      // Each chunk: its size in hex, CRLF, the bytes, CRLF; the last is of size 0 (no trailers here).
      for (;;) {
        const lineEnd = this.#buffer.indexOf("\r\n");
        if (lineEnd < 0) return false;
        const size = Number.parseInt(this.#buffer.toString("latin1", 0, lineEnd), 16);
        const next = lineEnd + 2 + size + 2;
        if (this.#buffer.length < next) return false;
        this.#buffer = this.#buffer.subarray(next);
        if (size === 0) break;
      }
    } else {
      if (this.#buffer.length < this.#body) return false;
      this.#buffer = this.#buffer.subarray(this.#body);
    }
    this.#body = undefined;
    const done = this.#current;
    this.#current = undefined;
    done(undefined, this.#status, this.#retryAfter);
    if (this.#closeAfter) {
      this.socket.destroy();
      return false;
    }
    this.pool.idle(this);
    return true;
  }

  #closed() {
    this.pool.lost(this);
    const done = this.#current;
    this.#current = undefined;
    done?.(new Error("connection closed"));
  }
}

/** At most `connections` kept-alive connections to `origin`; requests beyond wait for one in order. */
class RawPool {
  #free = [];
  #all = new Set();
  /** Requests waiting for a connection, oldest at #head (Array.shift copies the rest: a 100,000-long queue
   * made the client, not the server, the bottleneck at 10x). */
  #waiting = [];
  #head = 0;

  constructor(origin, connections, headers) {
    const url = new URL(origin);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.max = connections;
    this.head = Object.entries({ host: url.host, ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
  }

  /** POSTs `body` (a string) to `path`; `callback(error, status, retryAfter)`. */
  post(path, body, callback) {
    this.#dispatch(
      `POST ${path} HTTP/1.1\r\n${this.head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      callback,
    );
  }

  #dispatch(bytes, callback) {
    let connection = this.#free.pop();
    if (!connection && this.#all.size < this.max) {
      connection = new RawConnection(this);
      this.#all.add(connection);
    }
    if (connection) connection.send(bytes, callback);
    else this.#waiting.push([bytes, callback]);
  }

  #nextWaiting() {
    if (this.#head === this.#waiting.length) return undefined;
    const next = this.#waiting[this.#head++];
    if (this.#head > 4096 && this.#head * 2 > this.#waiting.length) {
      this.#waiting = this.#waiting.slice(this.#head);
      this.#head = 0;
    }
    return next;
  }

  idle(connection) {
    const next = this.#nextWaiting();
    if (next) connection.send(...next);
    else this.#free.push(connection);
  }

  lost(connection) {
    this.#all.delete(connection);
    this.#free = this.#free.filter((free) => free !== connection);
    // A request waiting for a connection gets a new one in place of the lost one.
    const next = this.#nextWaiting();
    if (next) this.#dispatch(...next);
  }

  destroy() {
    this.#waiting = [];
    this.#head = 0;
    for (const connection of this.#all) connection.socket.destroy();
  }
}

/** A fresh tally of one load's answers. */
function tally() {
  const figures = { sent: 0, ok: 0, shed: 0, shedWithRetryAfter: 0, other: 0, errors: 0 };
  return { ...figures, served: [], shedMs: [], startedAt: performance.now(), lastAt: performance.now() };
}

const elapsed = (figures) => Math.max(0.001, (figures.lastAt - figures.startedAt) / 1000);

/** Sends `next()` (`{ path, body }`) as a POST and counts its answer in `figures`, timed from `due`. */
function send(client, figures, due, onDone) {
  const { path, body } = client.next();
  client.pool.post(path, JSON.stringify(body), (error, status, retryAfter) => {
    if (error) figures.errors++;
    else {
      figures.lastAt = performance.now();
      const ms = figures.lastAt - due;
      if (status >= 200 && status < 300) {
        figures.ok++;
        figures.served.push(ms);
      } else if (status === 503) {
        figures.shed++;
        figures.shedMs.push(ms);
        if (retryAfter) figures.shedWithRetryAfter++;
      } else figures.other++;
    }
    onDone();
  });
}

/** The client of one load: its connections (at most `sockets`) and what it sends. */
function clientOf({ url, token, next, sockets }) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  return { pool: new RawPool(url, sockets, headers), next };
}

/** Waits up to `drainMs` for the answers still due, then closes the connections. */
async function drain(client, outstanding, drainMs) {
  const deadline = performance.now() + drainMs;
  while (outstanding() > 0 && performance.now() < deadline) await sleep(10);
  const unanswered = outstanding();
  client.pool.destroy();
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
  client.pool.destroy();
  return { ...figures, unanswered: 0, lateMs: 0, offeredSeconds: duration, seconds: elapsed(figures) };
}

export const percentile = (values, p) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
