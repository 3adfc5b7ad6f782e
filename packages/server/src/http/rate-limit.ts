// Rate limits: each token's requests, and each client address's failed authentications, counted in a fixed
// window with @fastify/rate-limit's counting stores. With Redis configured the counters are shared through it,
// under the configured key prefix; while its circuit is open (./redis-circuit.ts: Redis failed, hung or lost)
// every process counts on its own, so losing Redis degrades the limit instead of failing or slowing requests.
import { createRequire } from "node:module";
import rateLimit, { type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import { type ApiError, apiError } from "../core/errors.js";
import { type CircuitState, openCircuit, type RedisCircuit } from "./redis-circuit.js";

type Counted = { current: number; ttl: number };
type Done = (error: Error | null, result?: Counted) => void;
/** The store interface of @fastify/rate-limit (its `store` option). */
interface CounterStore {
  incr(key: string, done: Done, timeWindow: number, max: number): void;
  child(routeOptions: object): CounterStore;
}
type StoreClass<A extends unknown[]> = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  ...rest: A
) => CounterStore;

// The plugin's own stores, reused rather than re-implemented; they are CommonJS modules without types.
const require = createRequire(import.meta.url);
const LocalStore = require("@fastify/rate-limit/store/LocalStore.js") as StoreClass<[]>;
const RedisStore = require("@fastify/rate-limit/store/RedisStore.js") as StoreClass<[Redis, string]>;

/** How many blocked addresses each process remembers. */
const MAX_BLOCKED = 10_000;

/** Counts in Redis while its circuit is closed, in the process otherwise (and when a command fails). */
class FallbackStore implements CounterStore {
  constructor(
    private readonly shared: CounterStore,
    private readonly local: CounterStore,
    private readonly circuit: RedisCircuit,
  ) {}

  incr(key: string, done: Done, timeWindow: number, max: number): void {
    if (!this.circuit.usable()) {
      this.local.incr(key, done, timeWindow, max);
      return;
    }
    this.shared.incr(
      key,
      (error, result) => {
        if (!error) {
          this.circuit.succeeded();
          return done(null, result);
        }
        this.circuit.failed(error);
        this.local.incr(key, done, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: object): CounterStore {
    // The Redis store is shared as it is: its own child() would put the route's method and URL in the key
    // (undefined for limits made with createRateLimit), and the keys already say which limit they count.
    return new FallbackStore(this.shared, this.local.child(routeOptions), this.circuit);
  }
}

/**
 * A CounterStore as the plugin's type of a store says it: that type lacks the window and limit the plugin
 * calls its stores with, so they are optional here and handed on as they came.
 */
class PluginStore {
  constructor(private readonly counter: CounterStore) {}
  incr(key: string, done: Done, timeWindow?: number, max?: number): void {
    this.counter.incr(key, done, timeWindow as number, max as number);
  }
  child(routeOptions: object): PluginStore {
    return new PluginStore(this.counter.child(routeOptions));
  }
}

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Where the counters are shared; in the process without it. */
  redisUrl?: string;
  /** The longest wait for one Redis command, in milliseconds. */
  redisTimeoutMs: number;
  /** The prefix of every key in Redis. */
  redisPrefix: string;
}

/** How rate limits are counted now, for the health endpoint. */
export interface RateLimitState {
  /** "shared" through Redis, or "per-process". */
  rate_limits: "shared" | "per-process";
  /** Only with Redis configured: "up" while its circuit is closed, "down" while open. */
  redis?: "up" | "down";
}

declare module "fastify" {
  interface FastifyInstance {
    rateLimitState(): RateLimitState;
  }
}

export interface RateLimits {
  /** Counts a request of an authenticated token: sets the X-RateLimit headers, or throws the typed 429. */
  countToken(request: FastifyRequest, reply: FastifyReply, tokenKey: string): Promise<void>;
  /**
   * Throws the typed 429 when the request's address has failed authentication too often in this window,
   * before any token is looked up.
   */
  refuseBlockedAddress(request: FastifyRequest): void;
  /**
   * Counts a failed authentication against the request's address: the error answered is the authentication
   * error with the address's X-RateLimit headers, or the typed 429 once the address is over its limit.
   */
  countFailure(request: FastifyRequest, error: ApiError): Promise<ApiError>;
}

interface Limit {
  max: number;
  remaining: number;
  timeWindow: number;
  ttl: number;
  ttlInSeconds: number;
  isExceeded: boolean;
}

function headersOf(limit: Limit): Record<string, string> {
  return {
    "x-ratelimit-limit": String(limit.max),
    "x-ratelimit-remaining": String(Math.max(0, limit.remaining)),
    "x-ratelimit-reset": String(Math.ceil((Date.now() + limit.ttl) / 1000)),
  };
}

function tooMany(max: number, windowMs: number, ttlMs: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil(ttlMs / 1000));
  return apiError(
    "too_many_requests",
    `At most ${max} requests per ${Math.round(windowMs / 1000)} seconds; retry in ${retryAfter} seconds.`,
    { retry_after: retryAfter },
  ).withHeader("retry-after", String(retryAfter));
}

/**
 * The counting store shared through Redis, when one is configured: counts fall back to this process while
 * the circuit is open. Undefined without Redis (the plugin then counts in this process).
 */
async function sharedStore(
  fastify: FastifyInstance,
  options: RateLimitOptions,
): Promise<{ store: FastifyRateLimitStoreCtor; circuit: RedisCircuit } | undefined> {
  if (!options.redisUrl) return undefined;
  const circuit = await openCircuit(options.redisUrl, options.redisTimeoutMs, fastify.log);
  fastify.addHook("onClose", async () => {
    circuit.stop();
  });
  const root = new FallbackStore(
    new RedisStore(false, false, circuit.redis, options.redisPrefix),
    new LocalStore(false, false),
    circuit,
  );
  // The plugin constructs the store it is given: each of its stores counts in the one FallbackStore.
  const store: FastifyRateLimitStoreCtor = class extends PluginStore {
    constructor() {
      super(root);
    }
  };
  return { store, circuit };
}

function stateOf(circuit: RedisCircuit | undefined): RateLimitState {
  if (!circuit) return { rate_limits: "per-process" };
  const state: CircuitState = circuit.state();
  return state === "closed"
    ? { rate_limits: "shared", redis: "up" }
    : { rate_limits: "per-process", redis: "down" };
}

/** Registers the counting stores on `fastify` and returns the two limits of the guard. */
export async function rateLimits(fastify: FastifyInstance, options: RateLimitOptions): Promise<RateLimits> {
  const shared = await sharedStore(fastify, options);
  await fastify.register(rateLimit, { global: false, ...(shared ? { store: shared.store } : {}) });
  fastify.decorate("rateLimitState", () => stateOf(shared?.circuit));

  const { max, windowMs } = options;
  const perToken = fastify.createRateLimit({
    max,
    timeWindow: windowMs,
    keyGenerator: (request) => (request as FastifyRequest & { limitKey?: string }).limitKey as string,
  });
  const perAddress = fastify.createRateLimit({
    max,
    timeWindow: windowMs,
    keyGenerator: (request) => `auth-failure:${request.ip}`,
  });
  // Addresses over their limit of failed authentications, until when: refused before any token lookup.
  // Each process learns it from its own count (shared through Redis), so a blocked address costs each
  // process at most one lookup per window.
  const blocked = new Map<string, number>();

  return {
    async countToken(request, reply, tokenKey) {
      (request as FastifyRequest & { limitKey?: string }).limitKey = tokenKey;
      const limit = (await perToken(request)) as Limit;
      const headers = headersOf(limit);
      if (limit.isExceeded) throw tooMany(limit.max, limit.timeWindow, limit.ttl).withHeaders(headers);
      reply.headers(headers);
    },
    refuseBlockedAddress(request) {
      const until = blocked.get(request.ip);
      if (until === undefined) return;
      const ttl = until - Date.now();
      if (ttl <= 0) {
        blocked.delete(request.ip);
        return;
      }
      throw tooMany(max, windowMs, ttl).withHeaders({
        "x-ratelimit-limit": String(max),
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.ceil(until / 1000)),
      });
    },
    async countFailure(request, error) {
      const limit = (await perAddress(request)) as Limit;
      const headers = headersOf(limit);
      if (!limit.isExceeded) return error.withHeaders(headers);
      if (blocked.size >= MAX_BLOCKED) {
        const now = Date.now();
        for (const [address, until] of blocked) if (until <= now) blocked.delete(address);
      }
      // Past MAX_BLOCKED addresses the others are still refused, only after their lookup.
      if (blocked.size < MAX_BLOCKED) blocked.set(request.ip, Date.now() + limit.ttl);
      return tooMany(limit.max, limit.timeWindow, limit.ttl).withHeaders(headers);
    },
  };
}
