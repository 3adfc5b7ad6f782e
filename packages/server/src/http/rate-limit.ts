// Rate limits: each token's requests, and each client address's failed authentications, counted in a fixed
// window with @fastify/rate-limit's counting stores. With Redis configured the counters are shared through it;
// while Redis cannot be reached every process counts on its own (one warning when that starts, one line when
// Redis is back), so losing Redis degrades the limit instead of failing the requests.
import { createRequire } from "node:module";
import rateLimit, { type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import { type ApiError, apiError } from "../core/errors.js";

type Counted = { current: number; ttl: number };
type Done = (error: Error | null, result: Counted | null) => void;
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

/** How long a request waits for Redis before it is counted in the process instead. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** How long the start waits for a first connection to Redis before it reports it unreachable. */
const REDIS_START_TIMEOUT_MS = 2000;

/** How many blocked addresses each process remembers. */
const MAX_BLOCKED = 10_000;

/** A Redis URL fit for a log line: without its password. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unparsable URL)";
  }
}

/** The Redis connection and whether its counters can be used now; logs each change of state once. */
class RedisLink {
  private down = false;
  private closing = false;
  constructor(
    readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
    private readonly where: string,
  ) {
    // Every failed reconnection emits "error"; one warning per outage is enough (and an "error" event
    // without a listener would be logged by ioredis as unhandled).
    redis.on("error", (error: Error) => this.lost(error));
    redis.on("ready", () => {
      if (!this.down) return;
      this.down = false;
      this.log.info(
        { redis: this.where },
        "Redis is reachable again: rate limits are shared through it again",
      );
    });
  }

  /** Whether Redis can count now; a connection found lost here is reported like a failed command. */
  usable(): boolean {
    if (this.redis.status === "ready") return true;
    if (!this.closing) this.lost(new Error(`the connection is ${this.redis.status}`));
    return false;
  }

  /** The server is stopping: the connection ends on purpose. */
  close(): void {
    this.closing = true;
    this.redis.disconnect();
  }

  lost(error: Error): void {
    if (this.down) return;
    this.down = true;
    this.log.warn(
      { redis: this.where, err: { message: error.message } },
      "Redis is unreachable: rate limits are counted in each process until it answers again",
    );
  }
}

/** Counts in Redis while it answers, in the process otherwise. */
class FallbackStore implements CounterStore {
  constructor(
    private readonly shared: CounterStore,
    private readonly local: CounterStore,
    private readonly link: RedisLink,
  ) {}

  incr(key: string, done: Done, timeWindow: number, max: number): void {
    if (!this.link.usable()) {
      this.local.incr(key, done, timeWindow, max);
      return;
    }
    this.shared.incr(
      key,
      (error, result) => {
        if (!error) return done(null, result);
        this.link.lost(error);
        this.local.incr(key, done, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: object): CounterStore {
    return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions), this.link);
  }
}

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** Where the counters are shared; in the process without it. */
  redisUrl?: string;
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

/** Waits for the first connection; false when Redis did not answer in time. */
async function connected(redis: Redis): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), REDIS_START_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      redis.connect().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The counting store shared through Redis, when one is configured: counts fall back to this process while
 * Redis is unreachable. Undefined without Redis (the plugin then counts in this process).
 */
async function sharedStore(
  fastify: FastifyInstance,
  redisUrl: string | undefined,
): Promise<FastifyRateLimitStoreCtor | undefined> {
  if (!redisUrl) return undefined;
  const where = redactedUrl(redisUrl);
  // Loaded only when configured: ioredis costs a start without Redis some 60 ms.
  const { Redis } = await import("ioredis");
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    // Without a connection a command fails at once (and is counted in the process) instead of waiting.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  const link = new RedisLink(redis, fastify.log, where);
  if (await connected(redis)) fastify.log.info({ redis: where }, "rate limits are shared through Redis");
  else link.lost(new Error(`no connection within ${REDIS_START_TIMEOUT_MS} ms`));
  fastify.addHook("onClose", async () => {
    link.close();
  });
  const root = new FallbackStore(
    new RedisStore(false, false, redis, "workapi-rate-limit:"),
    new LocalStore(false, false),
    link,
  );
  return class {
    constructor() {
      // biome-ignore lint/correctness/noConstructorReturn: the plugin constructs the store it is given
      return root;
    }
    // The plugin's type of a store lacks the window and limit its stores are called with.
  } as unknown as FastifyRateLimitStoreCtor;
}

/** Registers the counting stores on `fastify` and returns the two limits of the guard. */
export async function rateLimits(fastify: FastifyInstance, options: RateLimitOptions): Promise<RateLimits> {
  const store = await sharedStore(fastify, options.redisUrl);
  await fastify.register(rateLimit, { global: false, ...(store ? { store } : {}) });

  const { max, windowMs } = options;
  const perToken = fastify.createRateLimit({
    max,
    timeWindow: windowMs,
    keyGenerator: (request) => `token:${(request as FastifyRequest & { limitKey?: string }).limitKey}`,
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
