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
// What is refused while behind is decided by an admitted rate: the server serves at most so many requests a
// second (a token bucket that holds at most a few milliseconds' worth, so they come evenly) and refuses the
// rest. The rate starts at half what the server served just before it fell behind and follows the event
// loop's busy share, every 50 ms: cut while the loop is busier than its limit allows, raised while it has
// room. The refusals need room too: a loop with no idle moment answers no faster than requests arrive, and
// the queue that built in the callers' connection pools while the overload was detected never drains
// (served p50 800 ms at four times the sustainable load, with every tick on time). Besides, a turn of the
// loop refuses what comes after it has served the delay goal's worth of work, and every request is refused
// while the oldest write has waited longer than the goal. (Tried before, each measured at 4x: a share of
// arrivals admitted at random swung between a twentieth and a half, 0.4-4 s; a budget of served work per
// turn, halved while busy, 200-500 ms on a slow machine but 1.2 s on a fast one, where the loop turns
// thousands of times a second and serving one request a turn alone filled it.)
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
 * A flood puts the server behind at once, without waiting for late ticks (the backlog that builds in the
 * callers' pools meanwhile outlives the flood's start: served p99 0.5-1.3 s at four times the sustainable
 * load when only late ticks told): a turn of the event loop that has served this many times the delay goal
 * refuses the rest of its requests. One long task sheds nothing: the work before a turn does not count here.
 */
const FLOOD_FACTOR = 1;
/**
 * ...and only a turn that served this many requests: a flood comes from many callers at once, while a few
 * callers' requests (one each per turn) in a turn lengthened by a garbage collection or a slow query are not
 * one (and, refused, such callers resend at once and would keep the server behind).
 */
const FLOOD_REQUESTS = 16;
/**
 * On falling behind, the admitted rate starts at this share of the rate served in the last 50 ms window (the
 * callers' queues are already growing by then).
 */
const FIRST_RATE_SHARE = 0.25;
/** Each 50 ms window while behind, the admitted rate is cut or raised by these factors. */
const RATE_CUT = 0.7;
const RATE_RAISE = 1.1;
/** While behind, the loop's busy share is kept between the limit less these points (it needs idle moments). */
const BUSY_HIGH_MARGIN = 5;
const BUSY_LOW_MARGIN = 20;
/** The least admitted rate (requests a second): the server always serves some. */
const MIN_RATE = 20;
/** The admitted requests may come together at most this many ms' worth of the rate at once. */
const BURST_MS = 5;
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
/**
 * The connections that make a crowd (see #roundMs), or a growing one (see #growthMs): a few callers are not
 * one, however busy the loop. Where the callers run in the server's own process (an application or a test
 * suite that embeds it), the loop's busy time is their work as much as the requests', and the mean busy time
 * of a request counts both: 5 callers of a browser test, 11 requests and a loop 94% busy in 50 ms, came to
 * 24 ms and were refused. Refused, a few callers resend at once, as with FLOOD_REQUESTS; the wait they do
 * cause shows in late ticks.
 */
const CROWD_CONNECTIONS = 16;
/** ...and a crowd grows while it opens this many connections in each of two windows in a row. */
const GROWING_CONNECTIONS = 2;
/** Marks a socket with the number of the window in which it last sent a request. */
const SEEN_IN_WINDOW = Symbol("seen in window");
/** The window (ms) over which the event loop's busy share is measured. */
const WINDOW_MS = 50;
export class LoadShedder {
  /** Whether the server is behind: then requests past the admitted rate are refused. */
  #behind = false;
  /** While behind, the requests a second served (the others are refused). */
  #rate = 0;
  /** The token bucket of the admitted rate: requests that may be served now, and when it was last filled. */
  #tokens = 0;
  #filledAt = 0;
  /** Requests served in the current 50 ms window, and the rate (per second) served in the last one. */
  #servedInWindow = 0;
  #servedRate = 0;
  /** When a request was last refused, or the server last fell behind. */
  #lastRefusal = 0;
  /** When the current turn of the event loop read its first request (undefined between turns). */
  #turnFirst: number | undefined;
  /** The requests the current turn served. */
  #servedInTurn = 0;
  readonly #endTurn = () => {
    this.#turnFirst = undefined;
    this.#servedInTurn = 0;
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
  /** The current window's number, and the connections that sent requests in it. */
  #windowNumber = 0;
  #connectionsInWindow = 0;
  /**
   * The last window's connections times the mean busy time (ms) of a request served in it.
   *
   * Many callers at once, each waiting for its answer before it sends again, hide their queue from the loop:
   * it reads no more than it serves and its ticks come barely late, while their pools queue the rest of the
   * load. Measured at four times the sustainable load (200 connections): the loop read about 3,000 requests a
   * second for the 200-500 ms before a turn grew long enough to tell, and the requests served then waited 190
   * ms at the median and 800 ms at worst, the whole p99 of a 10 s run. Such callers each wait for a request
   * of every other one: a loop busy all the time over a window counts as behind when the connections that
   * sent requests in it, at least CROWD_CONNECTIONS of them, times the mean busy time of a request served,
   * exceed the delay goal. (A closed loop of 8 callers, the benchmark's sustainable load, waits 8 x 0.3 ms.)
   */
  #roundMs = 0;
  /** The connections that sent requests in the last window. */
  #crowdSize = 0;
  /** Connections opened less those closed in the current window. */
  #netOpened = 0;
  /** The same in each of the last two windows, the newer last. */
  #grown: [number, number] = [0, 0];
  /**
   * The wait (ms) each of the last two windows added to the callers' queues, as told by the connections they
   * opened.
   *
   * A caller opens another connection when a request of its finds all of its connections waiting for
   * answers: a pool that grows while the loop is busy all the time is a queue the server cannot see. It is
   * the start of a flood from callers' pools: measured at four times the sustainable load on a fast phase of
   * this machine (19,200 req/s offered), the pools grew from 28 to 200 connections over 300 ms while the
   * server served 3,000 req/s with 28-62 connections, each round of them shorter than the goal; 5,000
   * requests queued in the callers meanwhile, and the ones served from that queue made the run's p99
   * (260-470 ms). The demand beyond what the server serves is at least the share of connections that are
   * new, so each window adds that share of itself to the queued requests' wait. A loop busy all the time
   * over a window counts as behind when its connections grew in each of the last two windows, by at least
   * CROWD_CONNECTIONS in all, and the wait the two added exceeds the delay goal; callers who arrive together
   * once (a closed loop starting) grow the connections in one window only. With this rule the 4x run's served
   * p99 came to 28-69 ms (it was 262-296 ms without it on the same machine and day).
   */
  #growthMs: [number, number] = [0, 0];
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
      const socket = request.socket as typeof request.socket & { [SEEN_IN_WINDOW]?: number };
      if (socket[SEEN_IN_WINDOW] !== this.#windowNumber) {
        socket[SEEN_IN_WINDOW] = this.#windowNumber;
        this.#connectionsInWindow++;
      }
      if (this.#overBudget()) this.#refuse(request, response);
      else {
        this.#servedInTurn++;
        this.#servedInWindow++;
        route(request, response);
      }
    });
    // What Fastify sets on the server it makes itself.
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (this.options.maxEventLoopDelayMs > 0) {
      // Only with shedding on: the connections counted for #growthMs.
      server.on("connection", (socket) => {
        this.#netOpened++;
        socket.once("close", () => this.#netOpened--);
      });
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
   * Whether this request is refused. Before the server counts as behind, only a flood is: a turn of the event
   * loop whose own requests took FLOOD_FACTOR times the delay goal refuses the rest (what came before the
   * turn, e.g. one long task, does not count). While behind: a request past the admitted rate, one read in a
   * turn that has served the delay goal's worth, and every request while the oldest write has waited longer
   * than the goal. The first request of a turn asks to be told when the turn ends (setImmediate runs right
   * after the turn's I/O callbacks).
   */
  #overBudget(): boolean {
    if (this.#timer === undefined) return false; // shedding off, or the server not listening
    const now = performance.now();
    if (this.#turnFirst === undefined) {
      this.#turnFirst = now;
      setImmediate(this.#endTurn);
    }
    const goal = this.options.maxEventLoopDelayMs;
    const turnMs = this.#servedInTurn > 0 ? now - this.#turnFirst : 0;
    if (!this.#behind) {
      if (turnMs <= goal * FLOOD_FACTOR || this.#servedInTurn < FLOOD_REQUESTS) return false;
      // A flood: its backlog would build in the callers' pools while the ticks came late enough to tell.
      this.#fallBehind(now);
      return true;
    }
    if (turnMs > goal || this.#backlogMs() > goal) return true;
    const burst = Math.max(1, (this.#rate * BURST_MS) / 1000);
    this.#tokens = Math.min(burst, this.#tokens + ((now - this.#filledAt) * this.#rate) / 1000);
    this.#filledAt = now;
    if (this.#tokens < 1) return true;
    this.#tokens -= 1;
    return false;
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
   * windows in a row, with ticks late by half the goal, counts as behind too; and so does a loop busy all the
   * time over one window whose connections, each waiting for the others' requests, would wait longer than the
   * goal (see #roundMs), or in which the callers opened connections enough to add more than the goal to the
   * wait of their queued requests (see #growthMs).
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
      const windowMs = now - this.#windowStart;
      this.#servedRate = (this.#servedInWindow * 1000) / windowMs;
      this.#roundMs =
        this.#servedInWindow > 0
          ? (this.#connectionsInWindow * (busy / 100) * windowMs) / this.#servedInWindow
          : 0;
      this.#crowdSize = this.#connectionsInWindow;
      const grown = this.#netOpened;
      this.#grown = [this.#grown[1], grown];
      this.#netOpened = 0;
      const growthMs = this.#crowdSize > 0 ? windowMs * Math.min(1, grown / this.#crowdSize) : 0;
      this.#growthMs = [this.#growthMs[1], growthMs];
      this.#servedInWindow = 0;
      this.#windowStart = now;
      this.#connectionsInWindow = 0;
      this.#windowNumber++;
    }
    const busy = Math.min(...this.#busy);
    const { maxEventLoopDelayMs: goal, maxEventLoopBusyPercent: busyGoal } = this.options;
    const crowd =
      rolled &&
      queued &&
      this.#busy[1] > busyGoal &&
      this.#crowdSize >= CROWD_CONNECTIONS &&
      this.#roundMs > goal;
    const growing =
      rolled &&
      this.#busy[1] > busyGoal &&
      Math.min(...this.#grown) >= GROWING_CONNECTIONS &&
      this.#grown[0] + this.#grown[1] >= CROWD_CONNECTIONS &&
      this.#growthMs[0] + this.#growthMs[1] > goal;
    if (
      delayMs > goal ||
      crowd ||
      growing ||
      (rolled && busy > busyGoal && delayMs > goal / QUEUED_FRACTION)
    ) {
      if (!this.#behind) this.#fallBehind(now);
    } else if (this.#behind && now - this.#lastRefusal > CALM_MS) {
      this.#behind = false;
    }
    if (this.#behind && rolled) this.#adjustRate(this.#busy[1], busyGoal);
    this.#worstDelayMs = Math.max(this.#worstDelayMs, delayMs);
    if (now - this.#lastLog >= 1000) this.#report(now);
    this.#timer = setTimeout(() => this.#tick(), TICK_MS);
    this.#timer.unref();
  }

  /** The server is behind from `now`: the admitted rate starts at a share of the rate served last. */
  #fallBehind(now: number): void {
    this.#behind = true;
    this.#lastRefusal = now;
    this.#rate = Math.max(MIN_RATE, this.#servedRate * FIRST_RATE_SHARE);
    this.#tokens = 0;
    this.#filledAt = now;
  }

  /** Each window while behind: a loop busier than its limit allows serves fewer; one with room, more. */
  #adjustRate(busy: number, busyGoal: number): void {
    if (busy > busyGoal - BUSY_HIGH_MARGIN) this.#rate = Math.max(MIN_RATE, this.#rate * RATE_CUT);
    else if (busy < busyGoal - BUSY_LOW_MARGIN) this.#rate *= RATE_RAISE;
  }

  /** One log line a second while requests are shed, not one per refused request. */
  #report(now: number): void {
    if (this.#shedSinceLog > 0) {
      this.#logger?.warn(
        {
          shed: this.#shedSinceLog,
          worstDelayMs: Math.round(this.#worstDelayMs),
          behind: this.#behind,
          admittedPerSecond: Math.round(this.#rate),
        },
        `overloaded: ${this.#shedSinceLog} requests answered 503 in the last ${Math.round((now - this.#lastLog) / 1000)} s`,
      );
    }
    this.#shedSinceLog = 0;
    this.#worstDelayMs = 0;
    this.#lastLog = now;
  }
}
