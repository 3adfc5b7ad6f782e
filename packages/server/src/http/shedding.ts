// Load shedding: when the server falls behind (its event loop late, or the oldest write waiting on the write
// thread old), the new requests that would wait too long are answered at once with 503 service_unavailable
// and Retry-After, so that the requests it does serve keep answering quickly instead of all of them waiting
// in a growing queue.
//
// Written here rather than with @fastify/under-pressure, which the server used before: under overload, the
// price of each refusal decides whether the server keeps up at all. Refused inside Fastify (routing, hooks,
// the error handler, the access log), a 503 cost about a quarter of a served read, so at four times the
// sustainable load the refusals alone filled the event loop and the served requests' p99 reached 13 s. Here the
// refusal is prebuilt bytes written from Node's request event, before Fastify sees the request.
//
// What is refused while behind is decided per turn of the event loop: the requests read in one turn wait for
// the work done before them in it (a read is served within the turn that read it; a write is posted to the
// write thread), so once a turn has been busy for the delay goal, the rest of its requests are refused. A
// turn then holds at most the goal of served work however many requests are queued. The refusals need room
// too: a loop with no idle moment answers fewer requests than arrive and the callers' queues grow, so while
// the loop stays busy over its limit the turn's budget of served work is halved each 50 ms, and raised slowly
// while it has room. (A share admitted at random, cut and raised by the measured delay, swung between a
// twentieth and a half at four times the sustainable load; with a fixed budget of 20 ms per turn the loop
// never idled and the callers' queues grew: served p99 6 s at 4x where bare Node refusing everything kept
// 209 ms. With the adaptive budget: 321 ms, against that floor's 58 ms, in one run.)
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import { apiError } from "../core/errors.js";

export interface SheddingOptions {
  /** The event-loop delay (ms) the server stays under by shedding; 0: never shed. */
  maxEventLoopDelayMs: number;
  /** The share of time (percent) the event loop may be busy, over two windows in a row, before shedding. */
  maxEventLoopBusyPercent: number;
  retryAfterS: number;
  /**
   * The origins whose browsers may read answers (WORKAPI_CORS_ORIGINS; "*" for any): a refusal is written
   * before the CORS plugin runs, so it carries their headers itself, or a browser would see a network error
   * instead of the 503 and its Retry-After.
   */
  corsOrigins?: readonly string[];
}

/** How often the delay is measured. */
const TICK_MS = 10;
/**
 * Before the server counts as behind (which takes a few late ticks), a turn's requests are refused once the
 * requests it served took this many times the delay goal: a sudden flood must not make the first turns long
 * while it is detected. One long task sheds nothing: the work before a turn does not count here.
 */
const FLOOD_FACTOR = 3;
/** Each 50 ms window while behind, a turn's budget of served work is cut or raised by these factors. */
const BUDGET_CUT = 0.5;
const BUDGET_RAISE = 1.1;
/** The least served work (ms) a turn may hold while behind: the server always serves some. */
const MIN_BUDGET_MS = 0.25;
/** Once behind, the server stays so until no request was refused for this long (ms). */
const CALM_MS = 1000;
/** The ticks that must all come late for the event loop to count as behind. */
const LATE_TICKS = 3;
/**
 * A loop busy all the time is behind only when requests wait for it: its ticks then come late by more than
 * this fraction of the delay goal on every tick (one caller's requests, back to back, keep a loop busy with
 * ticks barely late).
 */
const QUEUED_FRACTION = 2;
/** The window (ms) over which the event loop's busy share is measured. */
const WINDOW_MS = 50;
export class LoadShedder {
  /** Whether the server is behind: then each turn's requests past the turn's budget are refused. */
  #behind = false;
  /**
   * While behind, the served work (ms) a turn may hold: the delay goal at first, cut while the loop is still
   * busy all the time (the refusals need room too: a loop with no idle moment answers fewer requests than
   * arrive, and the callers' queues grow), raised again while it has room.
   */
  #budgetMs = 0;
  /** When a request was last refused, or the server last fell behind. */
  #lastRefusal = 0;
  /**
   * When the current turn of the event loop began as its requests see it (the work done since the loop last
   * finished a turn that read requests, its idle wait for I/O not counted); undefined between turns.
   */
  #turnOrigin: number | undefined;
  /** When the loop last finished a turn that read requests, and its idle time then (ms, cumulative). */
  #turnEnd = 0;
  #idleAtTurnEnd = 0;
  /** When the current turn read its first request (undefined between turns), and the requests it served. */
  #turnFirst: number | undefined;
  #servedInTurn = 0;
  /** Ends a turn; while behind, notes when and the loop's idle time then (the next turn's origin needs it). */
  readonly #endTurn = () => {
    this.#turnFirst = undefined;
    this.#turnOrigin = undefined;
    this.#servedInTurn = 0;
    if (!this.#behind) return;
    this.#turnEnd = performance.now();
    this.#idleAtTurnEnd = performance.eventLoopUtilization().idle;
  };
  #shedSinceLog = 0;
  #worstDelayMs = 0;
  #timer: NodeJS.Timeout | undefined;
  #lastTick = 0;
  /** How late the last ticks came (ms), the newest last. */
  readonly #lateness: number[] = [];
  /** Requests that came since the last tick, and during each of the last ticks, the newest last. */
  #arrivals = 0;
  readonly #arrived: number[] = [];
  #lastLog = 0;
  #backlogMs: () => number = () => 0;
  /** The event loop's busy time at the current window's start, and the last two windows' busy shares. */
  #window = performance.eventLoopUtilization();
  #windowStart = 0;
  #busy: [number, number] = [0, 0];
  #logger: FastifyBaseLogger | undefined;
  readonly #refusal: { headers: Record<string, string | number>; body: Buffer };

  constructor(private readonly options: SheddingOptions) {
    const { retryAfterS } = options;
    const failure = apiError(
      "service_unavailable",
      `The server is overloaded; retry in ${retryAfterS} seconds.`,
    ).body();
    const body = Buffer.from(JSON.stringify(failure));
    this.#refusal = {
      body,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-length": body.length,
        "retry-after": String(retryAfterS),
        "cache-control": "no-store",
      },
    };
  }

  /**
   * Where the shedding is reported, and `backlogMs`, the age (ms) of the oldest write waiting (0 when none),
   * counted besides the event loop's delay.
   */
  watch(logger: FastifyBaseLogger, backlogMs: () => number): void {
    this.#logger = logger;
    this.#backlogMs = backlogMs;
  }

  /** Fastify's `serverFactory`: Node's HTTP server, with the shedding in front of Fastify's routing. */
  readonly serverFactory = (
    route: (request: IncomingMessage, response: ServerResponse) => void,
    options: FastifyServerOptions & { http?: object },
  ): Server => {
    const server = createServer(options.http ?? {}, (request, response) => {
      this.#arrivals++;
      if (this.#overBudget()) this.#refuse(request, response);
      else {
        this.#servedInTurn++;
        route(request, response);
      }
    });
    // What Fastify sets on the server it makes itself.
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (this.options.maxEventLoopDelayMs > 0) {
      server.once("listening", () => this.#start());
      server.once("close", () => this.stop());
    }
    return server;
  };

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Whether this request would wait longer than the goal: the loop has been busy for longer than that in this
   * turn, or the oldest write has waited longer. The first request of a turn marks where the turn began and
   * asks to be told when it ends (setImmediate runs right after the turn's I/O callbacks). What the turn
   * counts: the timers and I/O callbacks since the last turn that read requests ended (answers of the write
   * thread, of PostgreSQL and Redis included), and the requests served before this one in it.
   */
  #overBudget(): boolean {
    if (this.#timer === undefined) return false; // shedding off, or the server not listening
    const now = performance.now();
    if (this.#turnFirst === undefined) {
      this.#turnFirst = now;
      setImmediate(this.#endTurn);
    }
    const goal = this.options.maxEventLoopDelayMs;
    // Not behind: only the turn's own requests count (what came before it, e.g. one long task, does not).
    if (!this.#behind) return this.#servedInTurn > 0 && now - this.#turnFirst > goal * FLOOD_FACTOR;
    // The loop's idle time is read once a turn, and only while behind (the common path reads the clock).
    if (this.#turnOrigin === undefined) {
      const idle = performance.eventLoopUtilization().idle - this.#idleAtTurnEnd;
      this.#turnOrigin = Math.min(this.#turnFirst, this.#turnEnd + idle);
    }
    return now - this.#turnOrigin > this.#budgetMs || this.#backlogMs() > goal;
  }

  #refuse(request: IncomingMessage, response: ServerResponse): void {
    this.#shedSinceLog++;
    this.#lastRefusal = performance.now();
    const origin = request.headers.origin;
    const allowed = this.options.corsOrigins ?? [];
    const cors =
      origin !== undefined && (allowed.includes("*") || allowed.includes(origin))
        ? {
            "access-control-allow-origin": origin,
            "access-control-expose-headers": "retry-after",
            vary: "Origin",
          }
        : undefined;
    // The unread body, if any, is read and dropped by Node once the answer is sent; the connection is kept.
    response.writeHead(503, cors ? { ...this.#refusal.headers, ...cors } : this.#refusal.headers);
    response.end(this.#refusal.body);
  }

  #start(): void {
    this.#endTurn();
    this.#lastTick = performance.now();
    this.#windowStart = this.#lastTick;
    this.#window = performance.eventLoopUtilization();
    this.#lastLog = this.#lastTick;
    this.#timer = setTimeout(() => this.#tick(), TICK_MS);
    this.#timer.unref();
  }

  /**
   * Measures how late this tick came, how old the oldest write is and how busy the event loop was, and decides
   * whether the server is behind. The server counts as behind by the least of its last LATE_TICKS delays (each tick's
   * the greater of the two), and only while at least two requests came during each of those ticks: a few long
   * tasks (a garbage collection, validators compiled on first use, one slow commit) and one caller's requests
   * sent back to back are not an overload, and a server that cannot keep up is late on every tick while
   * requests keep coming. The delay alone
   * misses one overload: requests queued outside the process (in the kernel, in the callers' connection
   * pools) make each loop turn no longer than the connections it serves, so a loop busy all the time over two
   * windows in a row, with ticks late by half the goal, counts as behind too.
   */
  #tick(): void {
    const now = performance.now();
    this.#lateness.push(Math.max(now - this.#lastTick - TICK_MS, this.#backlogMs()));
    this.#arrived.push(this.#arrivals);
    this.#arrivals = 0;
    if (this.#lateness.length > LATE_TICKS) this.#lateness.shift();
    if (this.#arrived.length > LATE_TICKS) this.#arrived.shift();
    // Requests wait only where several come at once: one caller's requests, back to back, come one a tick.
    const queued = this.#arrived.length === LATE_TICKS && Math.min(...this.#arrived) >= 2;
    const delayMs = queued ? Math.min(...this.#lateness) : 0;
    this.#lastTick = now;
    const rolled = now - this.#windowStart >= WINDOW_MS;
    if (rolled) {
      const busy = performance.eventLoopUtilization(this.#window).utilization * 100;
      this.#busy = [this.#busy[1], busy];
      this.#window = performance.eventLoopUtilization();
      this.#windowStart = now;
    }
    const busy = Math.min(...this.#busy);
    const { maxEventLoopDelayMs: goal, maxEventLoopBusyPercent: busyGoal } = this.options;
    if (delayMs > goal || (rolled && busy > busyGoal && delayMs > goal / QUEUED_FRACTION)) {
      if (!this.#behind) {
        // The first turn counts from now, not from a turn that ended before the server fell behind.
        this.#behind = true;
        this.#lastRefusal = now;
        this.#budgetMs = goal;
        this.#endTurn();
      }
    } else if (this.#behind && now - this.#lastRefusal > CALM_MS) {
      this.#behind = false;
    }
    if (this.#behind && rolled) this.#adjustBudget(this.#busy[1], goal, busyGoal);
    this.#worstDelayMs = Math.max(this.#worstDelayMs, delayMs);
    if (now - this.#lastLog >= 1000) this.#report(now);
    this.#timer = setTimeout(() => this.#tick(), TICK_MS);
    this.#timer.unref();
  }

  /** Each window while behind: a loop still busy over the limit serves less per turn; one with room, more. */
  #adjustBudget(busy: number, goal: number, busyGoal: number): void {
    if (busy > busyGoal) this.#budgetMs = Math.max(MIN_BUDGET_MS, this.#budgetMs * BUDGET_CUT);
    else if (busy < busyGoal - 10) this.#budgetMs = Math.min(goal, this.#budgetMs * BUDGET_RAISE);
  }

  /** One log line a second while requests are shed, not one per refused request. */
  #report(now: number): void {
    if (this.#shedSinceLog > 0) {
      this.#logger?.warn(
        {
          shed: this.#shedSinceLog,
          worstDelayMs: Math.round(this.#worstDelayMs),
          behind: this.#behind,
          turnBudgetMs: Number(this.#budgetMs.toFixed(1)),
        },
        `overloaded: ${this.#shedSinceLog} requests answered 503 in the last ${Math.round((now - this.#lastLog) / 1000)} s`,
      );
    }
    this.#shedSinceLog = 0;
    this.#worstDelayMs = 0;
    this.#lastLog = now;
  }
}
