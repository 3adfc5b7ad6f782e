// The shapes the schema comparers share (types only): the events they report, the flags a schema is
// compared under, what one differ remembers, and the scope of one pair of schemas being walked.

/**
 * @typedef {"request" | "response"} Direction
 * @typedef {{ readOnly?: boolean, writeOnly?: boolean, parameter?: boolean, header?: boolean, text?: boolean }} Flags
 *   `text`: the value travels as text (a parameter or header not sent as JSON content): no JSON types there
 * @typedef {{ kind: string, change?: string, direction: Direction, path: string, pointer: string,
 *   side: "base" | "head", before?: import("../json.js").Json, after?: import("../json.js").Json, flags: Flags, [k: string]: import("../json.js").Json }} SchemaEvent
 * @typedef {(kind: string, fields?: Record<string, import("../json.js").Json>) => void} Emit
 * @typedef {(basePointer: string, headPointer: string) => boolean} Unchanged
 *   true when the nodes at the two pointers are equal with everything they reach, as the loaded files' texts
 *   tell without parsing them (engine/index.js); false when that cannot be told
 * @typedef {{ base: Record<string, import("../json.js").Json>, head: Record<string, import("../json.js").Json>, memo: Map<string, SchemaEvent[]>,
 *   texts: WeakMap<object, string>, sameRefs: Map<string, boolean>, unchanged: Unchanged }} DifferContext
 *   the two documents and what one differ remembers between comparisons
 * @typedef {{ base: Record<string, import("../json.js").Json>, head: Record<string, import("../json.js").Json>, direction: Direction, flags: Flags,
 *   emit: Emit,
 *   nested: (b: import("../json.js").Json, bp: string, h: import("../json.js").Json, hp: string, segment: string, childFlags?: Flags) => void,
 *   compare: (b: import("../json.js").Json, bp: string, h: import("../json.js").Json, hp: string) => SchemaEvent[] }} SchemaScope
 *   one pair of schemas being walked: `emit` reports an event at it, `nested` compares a pair of subschemas
 *   and reports their events below `segment`, `compare` compares a pair with the same direction and flags
 */

export {};
