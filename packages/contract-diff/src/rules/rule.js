// The shape of a rule module. Each file in this folder exports one rule as its default export.

// Its types are declared once, in ../index.d.ts (the package's types), and named here for the rule modules:
// `on` names the event kind the rule reads (the modules in src/engine/schema/ and src/engine/operations/ emit
// them); `when` decides whether the event is this rule's; `message` says it in one line; `given` is a
// before/after pair in shorthand (a request or response body schema, a query parameter, the operation
// `POST /things`, or whole-document overlays: test/support/given.ts builds the two documents).

/**
 * @typedef {import("../index.js").Level} Level
 * @typedef {import("../index.js").Policy} Policy
 * @typedef {import("../index.js").ChangeEvent} ChangeEvent
 * @typedef {import("../index.js").Given} Given
 * @typedef {import("../index.js").Rule} Rule
 */

export {};
