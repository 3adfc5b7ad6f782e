// Load shedding: a request is refused only while the server is overloaded at that moment, and overload is a
// queue that keeps growing, or a wait longer than callers will bear; a queue that waiting callers hold steady
// is capacity in use. The wait is the event loop's: every 10 ms a timer notes how late it came (a request read
// in a turn of the loop waited for the turn before it, as the timer did), and how many requests are in flight
// (read, not yet answered). The server is overloaded while the last tick came later than the target
// (WORKAPI_MAX_EVENT_LOOP_DELAY_MS) and either the last two ticks both came later than the patience
// (WORKAPI_MAX_WAIT_MS: a queue that stands that long, not one long task) or the queue grows: each of the last
// four ticks came later than the one before by the target or more, and on each of them more requests were in
// flight than on any tick of the second before. Each request is decided on the last tick, so the refusals stop
// with the first tick under the target, or no longer growing. Writes waiting for the write thread are not the
// loop's queue: a burst of writes makes writes wait, never a read refused. A refusal is answered at once,
// before Fastify routes it, with prebuilt bytes: 503 service_unavailable and Retry-After.
//
// Why so gently: a caller who waits for each answer before sending again (a test suite, an import, a load
// test's closed loop, a client's pool with a queue of its own) comes straight back when refused, so refusing
// it saves nothing and costs a refusal; its queue is bounded by the callers and stands still, however long.
// A queue that grows turn after turn (callers who do not wait: pipelined requests, a flood) or a wait past
// what callers bear is overload, and a refusal there is cheap: a tenth of a served read. Why the count in
// flight as well as the wait: on a machine whose cores other processes hold, the ticks come later and later
// while the queue does not grow at all (measured: 32 waiting test files beside three CPU-bound processes, ticks
// 28, 78, 101, 128 and 171 ms late with 0 to 8 requests in flight); the wait alone took that for a flood. Callers
// who wait cannot put more requests in flight than there are of them, so after their first second their count
// sets no new high. Written here rather than with @fastify/under-pressure, which refuses inside Fastify (a
// refusal there cost a quarter of a served read) on the loop's delay or busy share alone, with no notion of a
// queue that grows or stands.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import { apiError } from "../core/errors.js";

export interface SheddingOptions {
  /** The wait (ms) under which nothing is refused; 0: never shed. */
  targetMs: number;
  /** The wait (ms) past which a queue that stands is overload, growing or not. */
  patienceMs: number;
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
/** How many ticks in a row must each come later than the one before for a queue to be growing. */
const GROWING_TICKS = 4;
/** How many ticks back (a second, on time) a count in flight must be above to be a new high. */
const HIGH_TICKS = 100;

/**
 * Whether the server is overloaded, from how late each tick came (ms) and how many requests were in flight
 * then. Apart from the timer, so that the rule can be tested on any sequence of ticks.
 */
export class Overload {
  /** The last GROWING_TICKS + 1 ticks' lateness, oldest first. */
  readonly #late: number[] = Array(GROWING_TICKS + 1).fill(0);
  /** The last HIGH_TICKS + GROWING_TICKS ticks' counts in flight, oldest first. */
  readonly #inFlight: number[] = [];
  #overloaded = false;

  constructor(private readonly options: Pick<SheddingOptions, "targetMs" | "patienceMs">) {}

  get overloaded(): boolean {
    return this.#overloaded;
  }

  /** Notes a tick `lateMs` late with `inFlight` requests in flight; answers whether the server is overloaded now. */
  tick(lateMs: number, inFlight: number): boolean {
    const late = this.#late;
    const before = late[late.length - 1] as number;
    late.shift();
    late.push(lateMs);
    const counts = this.#inFlight;
    counts.push(inFlight);
    if (counts.length > HIGH_TICKS + GROWING_TICKS) counts.shift();
    const { targetMs, patienceMs } = this.options;
    const standing = before > patienceMs && lateMs > patienceMs;
    const growing =
      late.every((ms, i) => i === 0 || ms - (late[i - 1] as number) >= targetMs) && this.#newHighs();
    this.#overloaded = lateMs > targetMs && (standing || growing);
    return this.#overloaded;
  }

  /** Whether each of the last GROWING_TICKS counts in flight is above every count kept before it. */
  #newHighs(): boolean {
    const counts = this.#inFlight;
    if (counts.length <= GROWING_TICKS) return false;
    let high = -1;
    for (let i = 0; i < counts.length; i++) {
      const count = counts[i] as number;
      if (i >= counts.length - GROWING_TICKS && count <= high) return false;
      high = Math.max(high, count);
    }
    return true;
  }
}

export class LoadShedder {
  readonly #overload: Overload;
  #lastTick = 0;
  #refused = 0;
  /** Requests read and not yet answered (or whose connection closed). */
  #inFlight = 0;
  readonly #answered = (): void => {
    this.#inFlight--;
  };
  #lastLog = 0;
  #timer: NodeJS.Timeout | undefined;
  #logger: FastifyBaseLogger | undefined;
  readonly #refusal: { headers: Record<string, string | number>; body: Buffer };

  constructor(private readonly options: SheddingOptions) {
    this.#overload = new Overload(options);
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

  /** Where the shedding is reported. */
  watch(logger: FastifyBaseLogger): void {
    this.#logger = logger;
  }

  /** Fastify's `serverFactory`: Node's HTTP server, with the shedding in front of Fastify's routing. */
  readonly serverFactory = (
    route: (request: IncomingMessage, response: ServerResponse) => void,
    options: FastifyServerOptions & { http?: object },
  ): Server => {
    // With shedding off, nothing is counted.
    const counting = this.options.targetMs > 0;
    const server = createServer(options.http ?? {}, (request, response) => {
      if (this.#overload.overloaded) this.#refuse(request, response);
      else {
        if (counting) {
          this.#inFlight++;
          // 'close' comes once per answer: sent, or its connection gone.
          response.on("close", this.#answered);
        }
        route(request, response);
      }
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
    this.#lastLog = this.#lastTick;
    this.#schedule();
  }

  #schedule(): void {
    this.#timer = setTimeout(() => this.#tick(), TICK_MS);
    this.#timer.unref();
  }

  #tick(): void {
    const now = performance.now();
    const lateMs = now - this.#lastTick - TICK_MS;
    this.#lastTick = now;
    this.#overload.tick(lateMs, this.#inFlight);
    if (now - this.#lastLog >= 1000) this.#report(now, lateMs);
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
