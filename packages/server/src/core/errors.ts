// The one place that knows the interface's error model: every failure leaves the server as one of these
// bodies, `{type, message, detail}` plus the fields of its type, with the status the facts sheet gives. The
// store's failures (StoreError) are turned into them here, once (typedError), for the route's error handler
// and the write thread alike.
import type { ApiErrorBody, ErrorType } from "@workapi/types";
import { StoreError } from "../store/types.js";

/**
 * The error catalogue: every type of the interface's error model, once, with its status and title. Code raises
 * an error by its type with a detail (`apiError("not_found", "Tag 'TAG-9' does not exist.")`); the title is
 * the body's `message`. test/errors.test.ts checks the catalogue against the contract's error model.
 */
export const ERRORS: Readonly<Record<ErrorType, { status: number; title: string }>> = {
  bad_request: { status: 400, title: "The request is invalid." },
  parse_error: { status: 400, title: "The request body is not valid JSON." },
  missing_required_field: { status: 400, title: "A required field is missing." },
  invalid_field: { status: 400, title: "A field is invalid." },
  invalid_id: { status: 400, title: "An id is invalid." },
  unexpected_id_type: { status: 400, title: "An id names a record of the wrong type." },
  invalid_enum_value: { status: 400, title: "The value is not one of the allowed values." },
  unexpected_json_type: { status: 400, title: "A field has the wrong JSON type." },
  value_not_permitted: { status: 400, title: "The value is not permitted." },
  invalid_api_version: { status: 400, title: "Unknown API version." },
  invalid_content_type: { status: 400, title: "The content type is not supported." },
  artifact_already_attached_to_a_parent: {
    status: 400,
    title: "The artifact is already attached to a record.",
  },
  customization_validation_error: { status: 400, title: "Custom fields do not fit their schema." },
  stale_schema_fragments: { status: 400, title: "The schema fragments are out of date." },
  unauthenticated: { status: 401, title: "Authentication is required." },
  token_expired: { status: 401, title: "The token has expired." },
  token_revoked: { status: 401, title: "The token was revoked." },
  dev_org_deactivated: { status: 401, title: "The organization is deactivated." },
  forbidden: { status: 403, title: "The token is not allowed to do this." },
  not_found: { status: 404, title: "Not found." },
  conflict: { status: 409, title: "Conflict." },
  request_entity_too_large: { status: 413, title: "The request body is too large." },
  too_many_requests: { status: 429, title: "Too many requests." },
  internal_error: { status: 500, title: "Internal error." },
  service_unavailable: { status: 503, title: "The service is unavailable." },
};

/** An error of `type` with its detail (the catalogue's title when none) and the fields of its type. */
export function apiError(type: ErrorType, detail?: string, extras: Record<string, unknown> = {}): ApiError {
  return new ApiError(type, detail ?? ERRORS[type].title, extras);
}

/** A failure to answer with a typed error body. Throw it from anywhere; the error handler sends it. */
export class ApiError extends Error {
  status: number;
  readonly headers: Record<string, string> = {};

  /** Use apiError(): errors are raised by type, with the catalogue's title. */
  constructor(
    readonly type: ErrorType,
    readonly detail: string,
    readonly extras: Record<string, unknown> = {},
  ) {
    super(ERRORS[type].title);
    this.name = "ApiError";
    this.status = ERRORS[type].status;
  }

  withHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  withHeaders(headers: Record<string, string>): this {
    Object.assign(this.headers, headers);
    return this;
  }

  /** Answers with another status than the type's own (405 for a known path with the wrong method). */
  withStatus(status: number): this {
    this.status = status;
    return this;
  }

  body(): ApiErrorBody {
    return { type: this.type, message: this.message, detail: this.detail, ...this.extras } as ApiErrorBody;
  }
}

/** A failure of the interface's model: an ApiError as it is, a StoreError as its type; undefined for others. */
export function typedError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (!(error instanceof StoreError)) return undefined;
  switch (error.code) {
    case "not_found":
      return apiError("not_found", error.message);
    case "conflict":
    case "version_mismatch":
      return apiError("conflict", error.message);
    case "bad_cursor":
      return apiError("invalid_field", error.message, { field_name: error.field ?? "cursor" });
  }
}

export const notFound = (what: string) =>
  apiError("not_found", `${what} does not exist or is not visible to this token.`);

export const fieldError = (
  type: "missing_required_field" | "invalid_field" | "invalid_id" | "unexpected_id_type",
  field: string,
  detail: string,
) => apiError(type, detail, { field_name: field });

export const notPermitted = (field: string, reason: string, detail: string, allowed?: string[]) =>
  apiError("value_not_permitted", detail, {
    field_name: field,
    reason,
    ...(allowed ? { allowed_values: allowed } : {}),
  });
