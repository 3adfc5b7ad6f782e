// The last step of every failed request: whatever threw (a handler's ApiError, the store's StoreError,
// Fastify's own errors) is answered as one of the interface's typed errors, in the shape the operation's
// contract declares. An unknown path is a typed 404.
import { randomUUID } from "node:crypto";
import { maxHeaderSize, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError } from "fastify";
import type { Operation } from "../core/contract.js";
import { type ApiError, apiError, typedError } from "../core/errors.js";
import type { StoreError } from "../store/types.js";
import { tooLarge } from "./body.js";
import { shared } from "./plugin.js";

export interface ErrorHandlerOptions {
  bodyLimit: number;
  validateResponses: boolean;
  /** Where answers that break the contract are recorded. */
  violations: string[];
}

export const errorHandling = shared<ErrorHandlerOptions>(async (fastify, options) => {
  fastify.setErrorHandler((error: FastifyError | ApiError | StoreError, request, reply) => {
    const operation = request.routeOptions.config.operation;
    const failure = declared(toApiError(error, options.bodyLimit), operation);
    if (failure.type === "internal_error") {
      const referenceId = randomUUID();
      failure.extras.reference_id = referenceId;
      request.log.error({ err: error, reference_id: referenceId }, "request failed");
    } else if (failure.status >= 500) {
      request.log.warn({ err: error }, failure.message);
    }
    if (operation && options.validateResponses) {
      const mismatch = operation.checkResponse(failure.status, failure.body());
      if (mismatch) {
        options.violations.push(`${operation.operationId} ${failure.status}: ${mismatch}`);
        request.log.error({ operation: operation.operationId, mismatch }, "error answer breaks the contract");
      }
    }
    reply.headers(failure.headers).code(failure.status).send(failure.body());
  });

  fastify.setNotFoundHandler((request) => {
    throw apiError("not_found", `There is no operation at ${request.method} ${request.url.split("?")[0]}.`);
  });
});

/**
 * An oversized body is answered with 413 where the operation's contract declares that response; an
 * operation that declares none (the org-schedule operations) answers it as a plain 400.
 */
function declared(error: ApiError, operation: Operation | undefined): ApiError {
  if (error.status !== 413 || !operation || operation.statuses.includes(413)) return error;
  return apiError("bad_request", error.detail);
}

/** Every failure, whatever threw it, as one of the interface's typed errors. */
function toApiError(error: unknown, bodyLimit: number): ApiError {
  const typed = typedError(error);
  if (typed) return typed;
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
    // The limits of multipart/form-data bodies (file size, number of parts).
    case "FST_REQ_FILE_TOO_LARGE":
    case "FST_PARTS_LIMIT":
    case "FST_FILES_LIMIT":
    case "FST_FIELDS_LIMIT":
      return tooLarge(bodyLimit);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return apiError("invalid_content_type", "Send Content-Type: application/json.");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return apiError("parse_error", fastifyError.message);
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return apiError("bad_request", "The Content-Length header does not match the body.");
    case "FST_ERR_BAD_URL":
    case "FST_ERR_ASYNC_CONSTRAINT":
      return apiError("bad_request", "The request URL is malformed.");
  }
  const status = fastifyError.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return apiError("bad_request", fastifyError.message);
  }
  return apiError(
    "internal_error",
    "The server failed to complete the request; quote the reference id when reporting it.",
  );
}

/**
 * Failures Node's HTTP parser answers before Fastify routes the request (a header block or URL over the
 * parser's limit, a malformed request line, a client too slow to send its headers), answered with the
 * interface's typed body in place of Fastify's own. The interface has no type of its own for these statuses:
 * they are bad_request (request_entity_too_large speaks of the body and carries its max_bytes).
 */
export function clientErrorHandler(
  this: { log: { trace(object: object, message: string): void } },
  error: Error & { code?: string },
  socket: Socket,
): void {
  if (error.code === "ECONNRESET" || socket.destroyed || answeredSockets.has(socket)) return;
  let status = 400;
  let failure = apiError("bad_request", "The request could not be read as HTTP/1.1.");
  if (error.code === "HPE_HEADER_OVERFLOW") {
    status = 431;
    failure = apiError(
      "bad_request",
      `The request line and headers together must stay under ${maxHeaderSize} bytes; send a shorter URL or fewer headers (large filters go in the POST form of a list).`,
    );
  } else if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    status = 408;
    failure = apiError("bad_request", "The request was not received in time.");
  }
  this.log.trace({ err: error }, "client error");
  answerOnSocket(socket, status, failure);
}

/** Connections answered by answerOnSocket: whatever the client still sends is discarded until they close. */
const answeredSockets = new WeakSet<Socket>();

/**
 * Writes a typed answer straight to a connection no request of which is being answered, and closes it: the
 * end is sent after the answer, and the connection is destroyed once the client closes its side or after a
 * second, so unread bytes of the client do not reset it before the answer is read.
 */
export function answerOnSocket(
  socket: Socket,
  status: number,
  failure: ApiError,
  headers: Record<string, string> = {},
): void {
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || answering?.headersSent) {
    socket.destroy();
    return;
  }
  answeredSockets.add(socket);
  const body = JSON.stringify(failure.body());
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n${extra.join("")}Connection: close\r\n\r\n${body}`,
  );
  socket.resume();
  socket.once("end", () => socket.destroy());
  setTimeout(() => socket.destroy(), 1000).unref();
}
