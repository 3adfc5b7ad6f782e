// Builds the HTTP application: one route per operation of the contract, every failure turned into a typed
// error, authentication, scopes, body and rate limits, request ids, the docs page, graceful shutdown.
import { randomUUID } from "node:crypto";
import cors from "@fastify/cors";
import multipart from "@fastify/multipart";
import rateLimit from "@fastify/rate-limit";
import { readDocsHtml } from "@workapi/docs";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { Redis } from "ioredis";
import type { ServerConfig } from "./config.js";
import { type Authenticated, authenticate, requireScopes } from "./http/auth.js";
import { type Contract, loadContract, type Operation } from "./http/contract.js";
import { ApiError } from "./http/errors.js";
import { readQuery, unflatten } from "./http/query.js";
import { handlers as allHandlers } from "./operations/index.js";
import type { Context } from "./operations/types.js";
import { type Store, StoreError } from "./store/types.js";

const KNOWN_API_VERSIONS = ["2024-01-24"];
const ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] as const;

export interface AppOptions {
  config: ServerConfig;
  store: Store;
  logger?: FastifyBaseLogger;
  /** Replaces handlers (tests script failures this way). */
  handlers?: Partial<Record<string, (ctx: Context, input: never) => Promise<unknown>>>;
}

export interface App {
  fastify: FastifyInstance;
  contract: Contract;
  /** Answers that broke the contract (only recorded while validating answers). Tests assert it stays empty. */
  violations: string[];
  close(): Promise<void>;
}

declare module "fastify" {
  interface FastifyRequest {
    auth?: Authenticated;
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}

export async function buildApp(options: AppOptions): Promise<App> {
  const { config, store } = options;
  const contract = loadContract({ validateResponses: config.validateResponses });
  const handlers = { ...allHandlers, ...options.handlers } as unknown as Record<
    string,
    (ctx: Context, input: unknown) => Promise<unknown>
  >;
  const violations: string[] = [];
  let closing = false;

  const fastify = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: { level: config.logLevel } }),
    bodyLimit: config.bodyLimit,
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    return503OnClosing: false,
    exposeHeadRoutes: false,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: true },
  });

  // Bodies: JSON only. An empty body is `{}`; malformed JSON is a parse_error.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(
        new ApiError(
          "parse_error",
          "The request body is not valid JSON.",
          `${(error as Error).message}. Send a JSON object with Content-Type: application/json.`,
        ),
        undefined,
      );
    }
  });
  // multipart/form-data: only the operations whose contract body is a form (artifacts.upload) take it; the
  // plugin's parser just marks the request, and the route handler reads the parts (readForm below).
  await fastify.register(multipart, {
    limits: { fileSize: config.bodyLimit, fieldSize: config.bodyLimit, fields: 20, files: 5, parts: 25 },
  });
  fastify.addContentTypeParser("*", (request, payload, done) => {
    // Accept a body-less request without a content type; refuse anything else that is not JSON.
    let size = 0;
    payload.on("data", (chunk: Buffer) => {
      size += chunk.length;
    });
    payload.on("end", () => {
      if (size === 0) return done(null, {});
      done(
        new ApiError(
          "invalid_content_type",
          "The content type is not supported.",
          `Bodies must be JSON; got '${request.headers["content-type"] ?? "no content type"}'. Send Content-Type: application/json.`,
        ),
        undefined,
      );
    });
    payload.on("error", (error) => done(error, undefined));
  });

  fastify.setErrorHandler((error: FastifyError | ApiError | StoreError, request, reply) => {
    let apiError = toApiError(error, config);
    const operation = request.routeOptions.config.operation;
    if (
      apiError.type === "request_entity_too_large" &&
      operation &&
      !operation.errorTypes.includes(apiError.type)
    ) {
      // The org-schedule operations do not answer request_entity_too_large in the interface: an oversized
      // body is a plain bad request there.
      apiError = new ApiError("bad_request", "The request body is too large.", apiError.detail);
    }
    if (apiError.type === "internal_error") {
      const referenceId = randomUUID();
      apiError.extras.reference_id = referenceId;
      request.log.error({ err: error, reference_id: referenceId }, "request failed");
    } else if (apiError.status >= 500) {
      request.log.warn({ err: error }, apiError.message);
    }
    if (operation && config.validateResponses) {
      const mismatch = operation.checkResponse(apiError.status, apiError.body());
      if (mismatch) {
        violations.push(`${operation.operationId} ${apiError.status}: ${mismatch}`);
        request.log.error({ operation: operation.operationId, mismatch }, "error answer breaks the contract");
      }
    }
    reply.headers(apiError.headers).code(apiError.status).send(apiError.body());
  });

  fastify.setNotFoundHandler((request) => {
    throw new ApiError(
      "not_found",
      "Not found.",
      `There is no operation at ${request.method} ${request.url.split("?")[0]}.`,
    );
  });

  fastify.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    if (closing) {
      reply.header("connection", "close");
      throw new ApiError(
        "service_unavailable",
        "The service is unavailable.",
        "The server is shutting down; retry shortly.",
      );
    }
  });
  fastify.addHook("preClose", async () => {
    closing = true;
  });
  // Answers finished during shutdown close their connection, so keep-alive clients do not hold the server open.
  fastify.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });

  if (config.corsOrigins.length > 0) {
    await fastify.register(cors, {
      origin: config.corsOrigins.includes("*") ? true : config.corsOrigins,
      methods: ["GET", "POST"],
      allowedHeaders: ["authorization", "content-type", "x-request-id", "x-vendor-version"],
      exposedHeaders: [
        "x-request-id",
        "retry-after",
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
      ],
      maxAge: 600,
    });
  }

  // Rate limits: per token (per client address before authentication succeeds), in memory or in Redis.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  await fastify.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: "workapi-rate-limit:" } : {}),
  });
  const limiter = fastify.createRateLimit({
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    keyGenerator: (request) =>
      request.auth ? `token:${request.auth.token.hash.slice(0, 32)}` : `ip:${request.ip}`,
  });

  const docsHtml = readDocsHtml();
  fastify.get("/docs", async (_request, reply) => reply.type("text/html; charset=utf-8").send(docsHtml));
  fastify.get("/openapi.json", async () => contract.spec);
  fastify.get("/health", async () => ({ status: "ok" }));

  const byPath = new Map<string, Operation[]>();
  for (const operation of contract.operations) {
    byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  }

  for (const [path, operations] of byPath) {
    for (const operation of operations) {
      const handler = handlers[operation.name];
      fastify.route({
        method: operation.method,
        url: path,
        config: { operation },
        preHandler: async (request, reply) => {
          const version = request.headers["x-vendor-version"];
          if (version !== undefined && !KNOWN_API_VERSIONS.includes(String(version))) {
            throw new ApiError(
              "invalid_api_version",
              "Unknown API version.",
              `x-vendor-version '${String(version)}' is not known; send one of: ${KNOWN_API_VERSIONS.join(", ")}.`,
              { value: String(version) },
            );
          }
          const orgCheck = operation.errorTypes.includes("dev_org_deactivated");
          request.auth = await authenticate(store, request.headers.authorization, orgCheck);
          const limit = await limiter(request);
          if (!limit.isAllowed) {
            const resetAt = Math.ceil((Date.now() + limit.ttl) / 1000);
            const headers = {
              "x-ratelimit-limit": String(limit.max),
              "x-ratelimit-remaining": String(Math.max(0, limit.remaining)),
              "x-ratelimit-reset": String(resetAt),
            };
            if (limit.isExceeded) {
              throw new ApiError(
                "too_many_requests",
                "Too many requests.",
                `At most ${limit.max} requests per ${Math.round(limit.timeWindow / 1000)} seconds; retry in ${limit.ttlInSeconds} seconds.`,
                { retry_after: limit.ttlInSeconds },
              )
                .withHeader("retry-after", String(limit.ttlInSeconds))
                .withHeaders(headers);
            }
            reply.headers(headers);
          }
          requireScopes(request.auth.token, operation.scopes);
        },
        handler: async (request, reply) => {
          if (!handler) {
            throw new Error(`no handler for ${operation.name}`);
          }
          const auth = request.auth as Authenticated;
          const form = operation.form;
          if (operation.method === "POST" && request.isMultipart() !== form) {
            throw new ApiError(
              "invalid_content_type",
              "The content type is not supported.",
              form
                ? `${path} takes a multipart/form-data body; got '${request.headers["content-type"] ?? "no content type"}'.`
                : `Bodies must be JSON; got '${request.headers["content-type"]}'. Send Content-Type: application/json.`,
            );
          }
          const input =
            operation.method === "GET"
              ? readQuery(
                  request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "",
                  operation.query,
                )
              : form
                ? await readForm(request, config)
                : (request.body ?? {});
          // A form's fields are checked by its handler (the contract's JSON Schema describes JSON bodies).
          if (!form) operation.validateInput(input);
          const args = operation.method === "GET" ? unflatten(input as Record<string, unknown>) : input;
          // A write is one transaction: every row it touches changes, or none does.
          const output = operation.safe
            ? await handler(contextFor(store, auth, operation, request), args)
            : await store.transaction((tx) => handler(contextFor(tx, auth, operation, request), args));
          const mismatch = operation.checkResponse(operation.successStatus, output);
          if (mismatch) {
            violations.push(`${operation.operationId} ${operation.successStatus}: ${mismatch}`);
            throw new Error(`answer of ${operation.operationId} breaks the contract: ${mismatch}`);
          }
          return reply.code(operation.successStatus).send(output);
        },
      });
    }
    const allowed = operations.map((operation) => operation.method);
    const others = ALL_METHODS.filter((method) => !allowed.includes(method as "GET" | "POST"));
    fastify.route({
      method: config.corsOrigins.length > 0 ? others : [...others, "OPTIONS"],
      url: path,
      handler: async (request) => {
        throw new ApiError(
          "bad_request",
          "Method not allowed.",
          `${path} answers ${allowed.join(" and ")}, not ${request.method}.`,
        )
          .withStatus(405)
          .withHeader("allow", allowed.join(", "));
      },
    });
  }

  return {
    fastify,
    contract,
    violations,
    async close() {
      await fastify.close();
      redis?.disconnect();
    },
  };
}

function contextFor(
  store: Store,
  auth: Authenticated,
  operation: Operation,
  request: FastifyRequest,
): Context {
  const typeScopes = (type: string) => operation.scopesByType?.scopes[type] ?? [];
  return {
    store,
    actor: auth.actor,
    org: auth.org,
    user: auth.user,
    token: auth.token,
    operation,
    requestId: request.id,
    // Where this server is reached, as the client addressed it (artifacts.prepare answers an absolute URL).
    baseUrl: `${request.protocol}://${request.host}`,
    allowsType: (type) => typeScopes(type).some((scope) => auth.token.scopes.includes(scope)),
    requireType(type, objectIds) {
      const carriesIds = !["slas.list", "org-schedules.list", "org-schedule-fragments.create"].includes(
        operation.name,
      );
      requireScopes(
        auth.token,
        typeScopes(type).length > 0 ? typeScopes(type) : ["(none)"],
        carriesIds ? objectIds : undefined,
      );
    },
  };
}

/** A file part of a multipart/form-data body. */
export interface FormFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/**
 * Reads a multipart/form-data body into an object: each text field as a string, each file part as a FormFile
 * (a name sent twice becomes an array). Files and fields are bounded by the body limit (413).
 */
async function readForm(request: FastifyRequest, config: ServerConfig): Promise<Record<string, unknown>> {
  const form: Record<string, unknown> = {};
  const add = (name: string, value: unknown) => {
    const existing = form[name];
    form[name] = existing === undefined ? value : [existing, value].flat();
  };
  try {
    for await (const part of request.parts()) {
      if (part.type === "file") {
        add(part.fieldname, {
          filename: part.filename,
          mimetype: part.mimetype,
          data: await part.toBuffer(),
        });
      } else {
        if (part.valueTruncated) throw tooLarge(config);
        add(part.fieldname, typeof part.value === "string" ? part.value : JSON.stringify(part.value));
      }
    }
  } catch (error) {
    const code = (error as FastifyError).code;
    if (error instanceof ApiError || (typeof code === "string" && code.startsWith("FST_"))) throw error;
    throw new ApiError(
      "bad_request",
      "The form is malformed.",
      `The multipart/form-data body could not be read: ${(error as Error).message}.`,
    );
  }
  return form;
}

function tooLarge(config: ServerConfig): ApiError {
  return new ApiError(
    "request_entity_too_large",
    "The request body is too large.",
    `Bodies of at most ${config.bodyLimit} bytes are accepted; send less.`,
    { max_bytes: config.bodyLimit },
  );
}

/** Every failure, whatever threw it, as one of the interface's typed errors. */
function toApiError(error: unknown, config: ServerConfig): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreError) {
    switch (error.code) {
      case "not_found":
        return new ApiError("not_found", "Not found.", error.message);
      case "conflict":
      case "version_mismatch":
        return new ApiError("conflict", "Conflict.", error.message);
      case "bad_cursor":
        return new ApiError("invalid_field", "The cursor is invalid.", error.message, {
          field_name: error.field ?? "cursor",
        });
    }
  }
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
    // The limits of multipart/form-data bodies (file size, number of parts).
    case "FST_REQ_FILE_TOO_LARGE":
    case "FST_PARTS_LIMIT":
    case "FST_FILES_LIMIT":
    case "FST_FIELDS_LIMIT":
      return tooLarge(config);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError(
        "invalid_content_type",
        "The content type is not supported.",
        "Send Content-Type: application/json.",
      );
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new ApiError("parse_error", "The request body is not valid JSON.", fastifyError.message);
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ApiError(
        "bad_request",
        "Bad request.",
        "The Content-Length header does not match the body.",
      );
    case "FST_ERR_BAD_URL":
    case "FST_ERR_ASYNC_CONSTRAINT":
      return new ApiError("bad_request", "Bad request.", "The request URL is malformed.");
  }
  const status = fastifyError.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new ApiError("bad_request", "Bad request.", fastifyError.message);
  }
  return new ApiError(
    "internal_error",
    "Internal error.",
    "The server failed to complete the request; quote the reference id when reporting it.",
  );
}

export type { FastifyReply };
