// Builds the HTTP application as the route of a request: each step is a plugin of src/http/, registered in
// the order a request meets them (see ARCHITECTURE.md at the repository's root, "How a request travels").
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { type ServerConfig, sandboxSettingsOf } from "./config.js";
import { AnswerCache } from "./core/answers.js";
import { type Contract, theContract } from "./core/contract.js";
import { createExecutor, type Executor, type WriteThread } from "./core/executor.js";
import type { Handlers } from "./core/handlers.js";
import { OneLinePerRequest } from "./http/access-log.js";
import { bodyParsing } from "./http/body.js";
import { connectionOptions, connections } from "./http/connections.js";
import { crossOrigin } from "./http/cors.js";
import { deprecation } from "./http/deprecation.js";
import { docs } from "./http/docs.js";
import { clientErrorHandler, errorHandling } from "./http/error-handler.js";
import { guard } from "./http/guard.js";
import { contractRoutes } from "./http/routes.js";
import { sandboxing } from "./http/sandboxes.js";
import { LoadShedder } from "./http/shedding.js";
import { shutdown } from "./http/shutdown.js";
import { handlers as allHandlers } from "./operations/index.js";
import { sandboxServices } from "./seed/index.js";
import type { Store } from "./store/types.js";
import { startWriteThread } from "./write-thread/sender.js";

export interface AppOptions {
  config: ServerConfig;
  store: Store;
  logger?: FastifyBaseLogger;
  /** Replaces handlers (tests script failures this way); writes then run in this thread. */
  handlers?: Partial<Handlers>;
  /** The data directory of a SQLite file store: writes run on a thread of their own (./write-thread/). */
  writeThread?: { dataDir: string };
}

export interface App {
  fastify: FastifyInstance;
  contract: Contract;
  /** Answers that broke the contract (only recorded while validating answers). Tests assert it stays empty. */
  violations: string[];
  close(): Promise<void>;
}

export async function buildApp({ config, store, logger, handlers, writeThread }: AppOptions): Promise<App> {
  const contract = theContract();
  const violations: string[] = [];
  const { bodyLimit, validateResponses } = config;
  const shedder = new LoadShedder({
    targetMs: config.maxEventLoopDelayMs,
    patienceMs: config.maxWaitMs,
    retryAfterS: config.sheddingRetryAfterS,
    corsOrigins: config.corsOrigins,
  });
  const fastify = Fastify({
    // Node's HTTP server with load shedding in front of Fastify's routing (./http/shedding.ts).
    serverFactory: shedder.serverFactory,
    ...(logger ? { loggerInstance: logger } : { logger: { level: config.logLevel } }),
    ...serverOptions(config),
  });
  await fastify.register(shutdown);
  const { maxConnectionsPerAddress, discardTimeoutMs } = config;
  await fastify.register(connections, { maxConnectionsPerAddress, discardTimeoutMs });
  await fastify.register(bodyParsing, { bodyLimit });
  await fastify.register(errorHandling, { bodyLimit, validateResponses, violations });
  await fastify.register(crossOrigin, { origins: config.corsOrigins });
  await fastify.register(deprecation, { contract });
  const { rateLimitMax, rateLimitWindowMs, redisUrl, redisTimeoutMs, redisPrefix } = config;
  await fastify.register(guard, {
    store,
    rateLimitMax,
    rateLimitWindowMs,
    ...(redisUrl ? { redisUrl } : {}),
    redisTimeoutMs,
    redisPrefix,
  });
  const sandboxes = sandboxSettingsOf(config);
  await fastify.register(sandboxing, { contract, store, settings: sandboxes }); // Prefer scenarios, journal, expiry
  await fastify.register(docs);
  // Scripted handlers (tests) run writes in this thread, where the scripts are.
  const thread = writeThread && !handlers ? startWriteThread(writeThread.dataDir, sandboxes) : undefined;
  const executor = executorOf(config, store, { ...allHandlers, ...handlers }, violations, thread);
  shedder.watch(fastify.log);
  await fastify.register(contractRoutes, {
    contract,
    executor,
    bodyLimit,
    cors: config.corsOrigins.length > 0,
  });
  return {
    fastify,
    contract,
    violations,
    close: async () => {
      shedder.stop();
      await fastify.close(); // in-flight requests finish first
      await executor.close();
    },
  };
}

/** Fastify's settings of this server (the logger and the HTTP server aside). */
function serverOptions(config: ServerConfig) {
  return {
    bodyLimit: config.bodyLimit,
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    return503OnClosing: false,
    // HEAD wherever GET is answered (the same headers, no body).
    exposeHeadRoutes: true,
    forceCloseConnections: "idle",
    // Every wait for a client is bounded (408 after the header or request timeout); see ./http/connections.ts.
    ...connectionOptions(config),
    routerOptions: { ignoreTrailingSlash: true },
    // Typed bodies for what Node's HTTP parser refuses before routing (431 for oversized headers).
    clientErrorHandler,
    // One access-log line per request instead of Fastify's two.
    logController: new OneLinePerRequest(),
  } as const;
}

/** The executor of every route: on a SQLite file or PostgreSQL, reads' answers are kept (./core/answers.ts). */
function executorOf(
  config: ServerConfig,
  store: Store,
  handlers: Partial<Handlers>,
  violations: string[],
  writeThread: WriteThread | undefined,
): Executor {
  const answers =
    store.changes && config.answerCacheMb > 0
      ? new AnswerCache(store.changes, config.answerCacheMb * 2 ** 20)
      : undefined;
  const { validateResponses } = config;
  return createExecutor({
    store,
    handlers,
    validateResponses,
    violations,
    sandboxes: sandboxServices(sandboxSettingsOf(config)),
    ...(writeThread ? { writeThread } : {}),
    ...(answers ? { answers } : {}),
  });
}
