// The shape of a rule module. Each file in this folder exports one rule as its default export.

/**
 * @typedef {"error" | "warning" | "info"} Level
 * @typedef {import("./support.js").Policy} Policy
 * @typedef {{ kind: string, change?: string, direction?: "request" | "response", where: string,
 *   pointer: string, side: "base" | "head", flags?: Record<string, boolean>, [field: string]: any }} ChangeEvent
 * @typedef {{ request?: [any, any], response?: [any, any], parameter?: [any, any], operation?: [any, any],
 *   document?: [any, any], policy?: Partial<Policy> }} Given
 *   a before/after pair in shorthand: a request or response body schema, a query parameter, the operation
 *   `POST /things`, or whole-document overlays (test/support/given.ts builds the two documents)
 * @typedef {{ id: string, level: Level, doc: string, on: string,
 *   when: (event: ChangeEvent, policy: Policy) => boolean,
 *   message: (event: ChangeEvent, policy: Policy) => string, given: Given }} Rule
 *   `on` names the event kind the rule reads (the modules in src/engine/schema/ and src/engine/operations/
 *   emit them); `when` decides whether the event is this rule's; `message` says it in one line.
 */

export {};
