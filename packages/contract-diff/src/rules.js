// Every finding the differ reports, by rule id. A rule has one level:
//   error    breaks existing callers or readers; the gate fails unless a pending changeset declares a major bump
//   warning  may surprise some clients (exhaustive readers, documented errors); listed, never fails the gate
//   info     safe for every client
// `example` is a one-line change that triggers the rule; the package README lists every rule with it.

/** @typedef {"error" | "warning" | "info"} Level */

/** @type {Readonly<Record<string, { level: Level, example: string }>>} */
export const RULES = Object.freeze({
  // Operations
  "operation-added": { level: "info", example: "POST /works.archive added" },
  "operation-removed": { level: "error", example: "POST /works.archive removed" },
  "method-removed": { level: "error", example: "GET removed from a path that still answers POST" },
  "security-alternative-removed": {
    level: "error",
    example: "security `[{bearer: [works:write]}, {bearer: [works:all]}]` loses `works:all`",
  },
  "security-alternative-added": { level: "info", example: "`{bearer: [works:all]}` added as a way in" },
  "pagination-added": { level: "error", example: "`x-pagination` added to a list that returned everything" },
  "pagination-removed": { level: "error", example: "`x-pagination` removed from a list" },
  "pagination-changed": { level: "error", example: "`x-pagination.items` renamed from `works` to `items`" },

  // Parameters
  "request-parameter-added-required": { level: "error", example: "new `query.org` with `required: true`" },
  "request-parameter-added-optional": { level: "info", example: "new optional `query.q`" },
  "request-parameter-removed": { level: "error", example: "`query.cursor` removed" },
  "request-parameter-became-required": { level: "error", example: "`query.limit` now `required: true`" },
  "request-parameter-became-optional": { level: "info", example: "`query.limit` no longer required" },

  // Request bodies
  "request-body-added-required": {
    level: "error",
    example: "a required body on an operation that took none",
  },
  "request-body-added-optional": {
    level: "info",
    example: "an optional body on an operation that took none",
  },
  "request-body-removed": { level: "error", example: "the request body of `works.create` removed" },
  "request-body-became-required": { level: "error", example: "`requestBody.required` false -> true" },
  "request-body-became-optional": { level: "info", example: "`requestBody.required` true -> false" },
  "request-body-closed": {
    level: "error",
    example: "`additionalProperties: false` added to a request schema",
  },
  "request-body-opened": {
    level: "info",
    example: "`additionalProperties: false` removed from a request schema",
  },
  "request-media-type-added": { level: "info", example: "`multipart/form-data` accepted beside JSON" },
  "request-media-type-removed": { level: "error", example: "`multipart/form-data` no longer accepted" },

  // What callers send (parameter and request body schemas)
  "request-property-added-required": { level: "error", example: "`body.note` added to `required`" },
  "request-property-added-optional": { level: "info", example: "optional `body.note` added" },
  "request-property-removed": {
    level: "error",
    example: "`body.size` removed from a closed body: callers sending it get 400",
  },
  "request-property-removed-ignored": {
    level: "warning",
    example: "`body.size` removed from an open body: the server ignores it now",
  },
  "request-property-became-required": { level: "error", example: "`body.size` added to `required`" },
  "request-property-became-optional": { level: "info", example: "`body.title` dropped from `required`" },
  "request-type-changed": { level: "error", example: "`body.size` integer -> string" },
  "request-type-widened": { level: "info", example: "`body.size` integer -> integer | null" },
  "request-enum-added": { level: "error", example: "`body.title` now limited to `enum: [a, b]`" },
  "request-enum-removed": { level: "info", example: "`enum` dropped from `body.visibility`" },
  "request-enum-value-added": { level: "info", example: '`body.visibility` accepts "org" too' },
  "request-enum-value-removed": { level: "error", example: '`body.visibility` no longer accepts "public"' },
  "request-bound-tightened": { level: "error", example: "`body.title` maxLength 200 -> 100" },
  "request-bound-loosened": { level: "info", example: "`body.title` maxLength 200 -> 300" },
  "request-format-added": { level: "error", example: "`body.title` gains `format: email`" },
  "request-format-changed": { level: "error", example: "`body.due` format date-time -> date" },
  "request-format-removed": { level: "info", example: "`body.due` loses `format: date-time`" },
  "request-pattern-added": { level: "error", example: "`body.title` gains `pattern: ^[a-z]+$`" },
  "request-pattern-changed": { level: "error", example: "`body.title` pattern ^a -> ^b" },
  "request-pattern-removed": { level: "info", example: "`body.title` loses its pattern" },
  "request-variant-added": { level: "info", example: "`body.filter` oneOf gains a variant" },
  "request-variant-removed": { level: "error", example: "`body.filter` oneOf loses `PresetFilter`" },
  "request-position-added": { level: "error", example: "`body.span` prefixItems gains a third position" },
  "request-position-removed": { level: "info", example: "`body.span` prefixItems loses its last position" },

  // What readers receive (success response schemas)
  "response-success-status-added": { level: "info", example: "201 documented beside 200" },
  "response-success-status-removed": { level: "error", example: "200 replaced by 201" },
  "response-media-type-added": { level: "info", example: "`application/x-ndjson` answered beside JSON" },
  "response-media-type-removed": { level: "error", example: "`application/json` no longer answered" },
  "response-property-added": { level: "info", example: "`response.work.color` added" },
  "response-property-removed": { level: "error", example: "`response.work.tags` removed" },
  "response-property-became-optional": {
    level: "error",
    example: "`response.work.stage` dropped from `required`",
  },
  "response-property-became-required": { level: "info", example: "`response.work.kind` added to `required`" },
  "response-type-changed": { level: "error", example: "`response.work.ordinal` integer -> integer | null" },
  "response-type-narrowed": { level: "info", example: "`response.work.ordinal` integer | null -> integer" },
  "response-enum-added": { level: "info", example: "`response.work.title` now limited to `enum: [a, b]`" },
  "response-enum-removed": { level: "error", example: "`enum` dropped from `response.work.kind`" },
  "response-enum-value-added": {
    level: "warning",
    example: '`response.work.kind` may answer "spike": exhaustive readers need a default',
  },
  "response-enum-value-removed": {
    level: "error",
    example: '`response.work.kind` no longer answers "chore"',
  },
  "response-bound-tightened": { level: "info", example: "`response.work.title` maxLength 200 -> 100" },
  "response-bound-loosened": { level: "info", example: "`response.work.title` maxLength 200 -> 300" },
  "response-format-added": { level: "info", example: "`response.work.id` gains `format: uuid`" },
  "response-format-changed": { level: "error", example: "`response.work.created` format date-time -> date" },
  "response-format-removed": { level: "error", example: "`response.work.created` loses `format: date-time`" },
  "response-pattern-added": { level: "info", example: "`response.work.key` gains a pattern" },
  "response-pattern-changed": { level: "info", example: "`response.work.key` pattern changed" },
  "response-pattern-removed": { level: "info", example: "`response.work.key` loses its pattern" },
  "response-variant-added": {
    level: "warning",
    example: "`response.work.origin` oneOf gains a variant: exhaustive readers need a default",
  },
  "response-variant-removed": { level: "info", example: "`response.work.origin` oneOf loses a variant" },
  "response-position-added": { level: "info", example: "a tuple in a response describes a third position" },
  "response-position-removed": {
    level: "error",
    example: "a tuple in a response no longer describes position 1",
  },

  // Error responses (documented non-2xx statuses)
  "error-response-added": { level: "info", example: "409 now documented on `works.create`" },
  "error-response-removed": {
    level: "warning",
    example: "400 no longer documented on `works.create`: clients handling it lose the typed error",
  },
});

/** Levels from most to least severe. */
export const LEVELS = Object.freeze(["error", "warning", "info"]);

/**
 * The level of a rule id; an unknown id throws, so a finding can never be emitted without a catalogued rule.
 * @param {string} rule
 * @returns {Level}
 */
export function levelOf(rule) {
  const entry = RULES[rule];
  if (!entry) throw new Error(`unknown contract-diff rule ${rule}`);
  return entry.level;
}
