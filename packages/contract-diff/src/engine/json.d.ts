/**
 * A node of a contract read as JSON: whatever the contract holds at that place. The differ reads it field by
 * field and checks each field where it uses it (`isObject`, `typeof`, `Array.isArray`), so the node itself is
 * typed as any value.
 */
// biome-ignore lint/suspicious/noExplicitAny: a contract's node holds whatever the contract says; see above
export type Json = any;
