// Before an operation's input is read, the caller must send a known API version,
// a valid token, stay within the rate limit (per token; per client address before authentication succeeds),
// and hold one of the operation's scopes. Scopes that depend on a record's type are checked by the handler
// (Context.requireType), once it knows the record.
import type { FastifyRequest } from "fastify";
import { type Authenticated, authenticate, requireScopes } from "../core/auth.js";
import { ApiError, apiError } from "../core/errors.js";
import type { Snapshot } from "../store/changes.js";
import type { Store } from "../store/types.js";
import { shared } from "./plugin.js";
import { type RateLimits, rateLimits } from "./rate-limit.js";

const KNOWN_API_VERSIONS = ["2024-01-24"];

declare module "fastify" {
  interface FastifyRequest {
    auth?: Authenticated;
    /**
     * What was committed to the database when this request was authenticated: read once per request, for
     * the credentials and the kept answers alike (see ../store/changes.ts).
     */
    committed?: Snapshot;
  }
}

export interface GuardOptions {
  store: Store;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Where the rate-limit counters live; in memory without it. */
  redisUrl?: string;
  redisTimeoutMs: number;
  redisPrefix: string;
}

export const guard = shared<GuardOptions>(async (fastify, options) => {
  const limits = await rateLimits(fastify, {
    max: options.rateLimitMax,
    windowMs: options.rateLimitWindowMs,
    ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
    redisTimeoutMs: options.redisTimeoutMs,
    redisPrefix: options.redisPrefix,
  });

  fastify.addHook("preHandler", async (request, reply) => {
    const operation = request.routeOptions.config.operation;
    if (!operation) return;
    const version = request.headers["x-vendor-version"];
    if (version !== undefined && !KNOWN_API_VERSIONS.includes(String(version))) {
      throw apiError(
        "invalid_api_version",
        `x-vendor-version '${String(version)}' is not known; send one of: ${KNOWN_API_VERSIONS.join(", ")}.`,
        { value: String(version) },
      );
    }
    const orgCheck = operation.errorTypes.includes("dev_org_deactivated");
    // At once on a SQLite file; one statement on PostgreSQL (the request's one round trip when its
    // credentials and its answer are kept).
    const reading = options.store.changes?.now();
    const committed = reading instanceof Promise ? await reading : reading;
    if (committed) request.committed = committed;
    request.auth = await authenticateCounted(limits, request, () =>
      authenticate(options.store, request.headers.authorization, orgCheck, committed),
    );
    await limits.countToken(request, reply, `token:${request.auth.token.hash.slice(0, 32)}`);
    requireScopes(request.auth.token, operation.scopes);
  });
});

/**
 * Authentication limited per client address: an address over its limit of failed authentications is
 * refused before its token is looked up, and every failure counts against it (answered with its headers).
 */
async function authenticateCounted(
  limits: RateLimits,
  request: FastifyRequest,
  attempt: () => Promise<Authenticated>,
): Promise<Authenticated> {
  limits.refuseBlockedAddress(request);
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw await limits.countFailure(request, error);
    throw error;
  }
}
