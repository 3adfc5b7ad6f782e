// The one place that knows the interface's error model: every failure leaves the server as one of these
// bodies, `{type, message, detail}` plus the fields of its type, with the status the facts sheet gives.
import type { ApiErrorBody, ErrorType } from "@workapi/types";

const STATUS: Record<ErrorType, number> = {
  bad_request: 400,
  parse_error: 400,
  missing_required_field: 400,
  invalid_field: 400,
  invalid_id: 400,
  unexpected_id_type: 400,
  invalid_enum_value: 400,
  unexpected_json_type: 400,
  value_not_permitted: 400,
  invalid_api_version: 400,
  invalid_content_type: 400,
  artifact_already_attached_to_a_parent: 400,
  customization_validation_error: 400,
  stale_schema_fragments: 400,
  unauthenticated: 401,
  token_expired: 401,
  token_revoked: 401,
  dev_org_deactivated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  request_entity_too_large: 413,
  too_many_requests: 429,
  internal_error: 500,
  service_unavailable: 503,
};

/** A failure to answer with a typed error body. Throw it from anywhere; the error handler sends it. */
export class ApiError extends Error {
  status: number;
  readonly headers: Record<string, string> = {};

  constructor(
    readonly type: ErrorType,
    message: string,
    readonly detail: string = message,
    readonly extras: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = STATUS[type];
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

export const notFound = (what: string) =>
  new ApiError("not_found", "Not found.", `${what} does not exist or is not visible to this token.`);

export const fieldError = (
  type: "missing_required_field" | "invalid_field" | "invalid_id" | "unexpected_id_type",
  field: string,
  detail: string,
) => new ApiError(type, messages[type], detail, { field_name: field });

export const notPermitted = (field: string, reason: string, detail: string, allowed?: string[]) =>
  new ApiError("value_not_permitted", "The value is not permitted.", detail, {
    field_name: field,
    reason,
    ...(allowed ? { allowed_values: allowed } : {}),
  });

const messages = {
  missing_required_field: "A required field is missing.",
  invalid_field: "A field is invalid.",
  invalid_id: "An id is invalid.",
  unexpected_id_type: "An id names a record of the wrong type.",
} as const;
