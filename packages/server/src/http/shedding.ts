// Load shedding: CoDel's control law (Nichols and Jacobson, "Controlling Queue Delay") on the wait of the
// requests, with a refused request as CoDel's dropped packet.
//
// The wait is measured, not the loop's busy share: every 10 ms a timer notes how late it came (a request read
// in a turn of the event loop waited for the turn before it, as the timer did), or how long the oldest write
// has waited for the write thread, if longer; the wait of an interval (100 ms) is the least of those: one
// long task, one garbage collection or one slow commit makes a tick or two late, a standing queue all of them. While that wait stays over the target for a whole interval, requests are refused one at a time, the
// n-th an interval / sqrt(n) after the one before, so the refusals grow as long as the queue stands and stop
// the moment it drains. A refusal is answered at once, before Fastify routes it, with prebuilt bytes: 503
// service_unavailable and Retry-After.
//
// Why so gently: a caller who waits for each answer before sending again (a test suite, an import, a load
// test's closed loop, a client's pool with a queue of its own) comes straight back when refused, so refusing
// it saves nothing and costs a refusal; such a loop busy all the time is at capacity, not overloaded, and
// refusing a share of it would only cut what it gets done (the rules this replaced answered 503 to nearly
// every request once 20 such callers were busy). Callers who honour Retry-After go away for its seconds, and
// the slow ramp of refusals finds how many must go. Written here rather than with @fastify/under-pressure,
// which refuses inside Fastify (a refusal there cost a quarter of a served read) on the loop's delay or busy
// share alone, with no notion of a standing queue.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import { apiError } from "../core/errors.js";

export interface SheddingOptions {
  /** The wait (ms) the server keeps its requests under while it sheds; 0: never shed. */
  targetMs: number;
  /** The Retry-After (seconds) of a refusal. */
  retryAfterS: number;
  /**
   * The origins whose browsers may read answers (WORKAPI_CORS_ORIGINS; "*" for any): a refusal is written
   * before the CORS plugin runs, so it carries their headers itself, or a browser would see a network error
   * instead of the 503 and its Retry-After.
   */
  corsOrigins?: readonly string[];
}

const TICK_MS = 10;
/** CoDel's interval (ms): the time a queue must stand to count, and the first gap between refusals. */
const INTERVAL_MS = 100;

export class LoadShedder {
  /**
   * The least lateness of the ticks in the current interval, and when that interval started; and the last
   * three ticks' lateness, which count too: a wait stands when every tick of an interval, and at least three
   * in a row, came late (a long task or two, such as validators compiled on first use and then a stall, make
   * a tick or two late however long they last, and must not start the refusals).
   */
  #leastLateMs = Number.POSITIVE_INFINITY;
  readonly #recentLateMs = [0, 0, 0];
  #intervalStart = 0;
  #lastTick = 0;
  /** CoDel's state: whether it refuses, how many it refused since it began, and when it refuses next. */
  #refusing = false;
  #count = 0;
  #lastCount = 0;
  #next = 0;
  #refused = 0;
  #lastLog = 0;
  #timer: NodeJS.Timeout | undefined;
  #logger: FastifyBaseLogger | undefined;
  #backlogMs: () => number = () => 0;
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

  /** Where the shedding is reported, and `backlogMs`, the age (ms) of the oldest write waiting (0 when none). */
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
      if (this.#refusing && this.#refuseNow()) this.#refuse(request, response);
      else route(request, response);
    });
    // What Fastify sets on the server it makes itself.
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (this.options.targetMs > 0) {
      server.once("listening", () => this.#start());
      server.once("close", () => this.stop());
    }
    return server;
  };

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** While refusing: whether this request is the one due to be refused (CoDel's drop schedule). */
  #refuseNow(): boolean {
    const now = performance.now();
    if (now < this.#next) return false;
    this.#count++;
    this.#next = now + INTERVAL_MS / Math.sqrt(this.#count);
    return true;
  }

  #refuse(request: IncomingMessage, response: ServerResponse): void {
    this.#refused++;
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
    this.#lastTick = performance.now();
    this.#intervalStart = this.#lastTick;
    this.#lastLog = this.#lastTick;
    this.#schedule();
  }

  #schedule(): void {
    this.#timer = setTimeout(() => this.#tick(), TICK_MS);
    this.#timer.unref();
  }

  /** Every tick: how late it came; every interval: whether the queue stood over the target throughout. */
  #tick(): void {
    const now = performance.now();
    // This tick's wait: how late it came, or how long the oldest write has waited, if longer.
    const lateMs = Math.max(now - this.#lastTick - TICK_MS, this.#backlogMs());
    this.#leastLateMs = Math.min(this.#leastLateMs, lateMs);
    this.#recentLateMs.push(lateMs);
    this.#recentLateMs.shift();
    this.#lastTick = now;
    if (now - this.#intervalStart >= INTERVAL_MS) {
      const waitMs = Math.min(this.#leastLateMs, ...this.#recentLateMs);
      if (waitMs <= this.options.targetMs) this.#refusing = false;
      else if (!this.#refusing) {
        // As CoDel: a queue that stands again soon after the last episode resumes near its refusal rate.
        const recent = now - this.#next < 16 * INTERVAL_MS && this.#count - this.#lastCount > 2;
        this.#count = recent ? this.#count - this.#lastCount : 0;
        this.#lastCount = this.#count;
        this.#refusing = true;
        this.#next = now;
      }
      this.#intervalStart = now;
      this.#leastLateMs = Number.POSITIVE_INFINITY;
      if (now - this.#lastLog >= 1000) this.#report(now, waitMs);
    }
    this.#schedule();
  }

  /** One log line a second while requests are refused, not one per refused request. */
  #report(now: number, waitMs: number): void {
    if (this.#refused > 0) {
      this.#logger?.warn(
        { shed: this.#refused, waitMs: Math.round(waitMs) },
        `overloaded: ${this.#refused} requests answered 503 in the last ${Math.round((now - this.#lastLog) / 1000)} s`,
      );
    }
    this.#refused = 0;
    this.#lastLog = now;
  }
}
