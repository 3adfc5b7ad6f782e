// The connection to Redis behind the rate limits, as a circuit breaker: Redis is a helper, never a dependency
// of an answer. Every command waits at most the command timeout; after a few failures in a row (or at once
// when the connection is lost) the circuit opens and requests are counted in the process without asking
// Redis; while open, a probe PINGs Redis every second and closes the circuit when it answers. Opening and
// closing are each logged once, and `state()` tells the health endpoint.
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";

/** How long the start waits for a first connection to Redis before it reports it unreachable. */
const START_TIMEOUT_MS = 2000;
/** Failed commands in a row that open the circuit (a lost connection opens it at once). */
const FAILURES_TO_OPEN = 3;
/** How often an open circuit asks Redis whether it answers again. */
const PROBE_INTERVAL_MS = 1000;

export type CircuitState = "closed" | "open";

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

export class RedisCircuit {
  private open = false;
  private failures = 0;
  private stopping = false;
  private probe: NodeJS.Timeout | undefined;
  private probing = false;

  constructor(
    readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
    private readonly where: string,
  ) {
    // Every failed reconnection emits "error": the circuit is already open after the first (and an "error"
    // event without a listener would be logged by ioredis as unhandled).
    redis.on("error", (error: Error) => this.trip(error));
  }

  /** "open" while requests are counted in the process, "closed" while they are counted in Redis. */
  state(): CircuitState {
    return this.open ? "open" : "closed";
  }

  /** Whether a request may ask Redis now; a connection found lost here opens the circuit. */
  usable(): boolean {
    if (this.open) return false;
    if (this.redis.status === "ready") return true;
    if (!this.stopping) this.trip(new Error(`the connection is ${this.redis.status}`));
    return false;
  }

  succeeded(): void {
    this.failures = 0;
  }

  /** A command failed or timed out: the circuit opens after FAILURES_TO_OPEN in a row. */
  failed(error: Error): void {
    this.failures++;
    if (this.failures >= FAILURES_TO_OPEN) this.trip(error);
  }

  /** The server is stopping: the probe ends and the connection ends on purpose. */
  stop(): void {
    this.stopping = true;
    clearInterval(this.probe);
    this.redis.disconnect();
  }

  /** Opens the circuit (logged once per outage) and starts the probe. */
  trip(error: Error): void {
    if (this.open || this.stopping) return;
    this.open = true;
    this.log.warn(
      { redis: this.where, err: { message: error.message } },
      "Redis is unreachable: rate limits are counted in each process until it answers again",
    );
    this.probe = setInterval(() => this.ask(), PROBE_INTERVAL_MS);
    this.probe.unref();
  }

  private ask(): void {
    if (this.probing) return;
    this.probing = true;
    this.redis.ping().then(
      () => {
        this.probing = false;
        this.reset();
      },
      () => {
        this.probing = false;
      },
    );
  }

  private reset(): void {
    if (!this.open || this.stopping) return;
    clearInterval(this.probe);
    this.open = false;
    this.failures = 0;
    this.log.info({ redis: this.where }, "Redis is reachable again: rate limits are shared through it again");
  }
}

/**
 * Connects to Redis with every command bounded by `timeoutMs`; the circuit is open from the start when the
 * first connection does not come within START_TIMEOUT_MS (the client keeps trying, and the probe sees it).
 */
export async function openCircuit(
  url: string,
  timeoutMs: number,
  log: FastifyBaseLogger,
): Promise<RedisCircuit> {
  const where = redactedUrl(url);
  // Loaded only when configured: ioredis costs a start without Redis some 60 ms.
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, {
    lazyConnect: true,
    // Without a connection a command fails at once (and is counted in the process) instead of waiting.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: timeoutMs,
  });
  const circuit = new RedisCircuit(redis, log, where);
  if (await connected(redis)) log.info({ redis: where }, "rate limits are shared through Redis");
  else circuit.trip(new Error(`no connection within ${START_TIMEOUT_MS} ms`));
  return circuit;
}

/** Waits for the first connection; false when Redis did not answer in time. */
async function connected(redis: Redis): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), START_TIMEOUT_MS);
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
