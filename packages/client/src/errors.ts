// Typed errors: ApiError, unwrap(), and the body given to an error answer that carries none of its own.
import type { ApiErrorBody } from "@workapi/types";
import { TYPE_BY_STATUS } from "./generated/errors.js";

/** Whether a parsed body is an error body of the interface (an object with a string `type`). */
export const isErrorBody = (body: unknown): body is ApiErrorBody =>
  typeof (body as ApiErrorBody | null)?.type === "string";

/** Seconds from a `Retry-After` header (a number of seconds or an HTTP date), if it has one. */
export function retryAfterHeader(headers: Headers): number | undefined {
  const value = headers.get("retry-after") ?? "";
  // NaN for a header that is neither, or none.
  const seconds = /^\s*\d/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isNaN(seconds) ? undefined : Math.max(0, seconds);
}

/**
 * The error body for an answer that has no usable one (not JSON, or JSON without `type`): the type its status
 * stands for (a 503 is `service_unavailable`, another 4xx `bad_request`), with the answer's text as `detail`.
 * Fields the type requires that the answer cannot tell are 0 (`max_bytes`) or the request id (`reference_id`).
 */
export function synthesizeError(response: Response, text: string): ApiErrorBody {
  const { status, headers } = response;
  const type = TYPE_BY_STATUS[status] ?? (status >= 500 ? "service_unavailable" : "bad_request");
  const body: Record<string, unknown> = {
    type,
    message: `The server answered ${status}${response.statusText ? ` ${response.statusText}` : ""}.`,
    detail: text.trim().slice(0, 500) || "The answer had no error body.",
  };
  if (type === "too_many_requests") body.retry_after = retryAfterHeader(headers) ?? 0;
  else if (type === "request_entity_too_large") body.max_bytes = 0;
  else if (type === "internal_error") body.reference_id = headers.get("x-request-id") ?? "";
  return body as ApiErrorBody;
}

/** An error answer of the interface, thrown with `throwOnError` and by {@link unwrap}. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  /** The HTTP status of the answer. */
  declare readonly status: number;
  /** The error body, told apart by `type`. */
  declare readonly body: ApiErrorBody;
  /** The answer's `x-request-id` header: quote it when reporting a problem. */
  declare readonly requestId: string | undefined;
  /** The answer itself (its body has been read). */
  declare readonly response: Response;

  constructor(response: Response, body: unknown) {
    const error = isErrorBody(body) ? body : synthesizeError(response, typeof body === "string" ? body : "");
    super(`${response.status} ${error.type}: ${error.message}`);
    this.status = response.status;
    this.body = error;
    this.requestId = response.headers.get("x-request-id") ?? undefined;
    this.response = response;
  }
}

/** Any call's answer, from the facade or from the openapi-fetch methods. */
export interface AnyResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; throws an {@link ApiError} for an error answer. */
export function unwrap<R extends AnyResult>(result: R): Exclude<R["data"], undefined> {
  if (!result.response.ok) throw new ApiError(result.response, result.error);
  return result.data as Exclude<R["data"], undefined>;
}
