// Breaks shown, not inferred: for an error-level finding, the contract's own examples of the operations it
// reaches are validated across the change. The old contract's example request that the new request schema
// refuses, or the new contract's example answer that the old answer schema refuses, is what a real caller or
// reader would meet. Validation is Ajv as the reference server makes it (@workapi/spec/validators' createAjv:
// `inputs` for requests, `outputs` for answers). An example its own side already refuses
// shows nothing about the change and is skipped; a finding the examples cannot show has no evidence.
import { createRequire } from "node:module";
import { operationsByKey, templateOf } from "./operations/matching.js";
import { child, isObject, resolve } from "./schema-view.js";

/** @typedef {import("../index.js").Evidence} Evidence (declared once in ../index.d.ts) */

const ID = "https://contract-review.invalid/document.json";
const MOST = 5;
// @workapi/spec/validators (and Ajv with it) is loaded on the first error-level finding with examples, not with
// the module: a review without one (most runs) does not pay for loading it. It is an ES module without
// top-level await, which `require` loads synchronously (Node 20.19 and later), as attachEvidence runs.
const require = createRequire(import.meta.url);
/** @type {typeof import("@workapi/spec/validators").createAjv | undefined} */
let loadedCreateAjv;
const createAjv = (
  /** @type {"inputs" | "outputs"} */ kind,
  /** @type {{ allErrors?: boolean }} */ overrides,
) => {
  loadedCreateAjv ??= /** @type {typeof import("@workapi/spec/validators")} */ (
    require("@workapi/spec/validators")
  ).createAjv;
  return loadedCreateAjv(kind, overrides);
};
/**
 * @typedef {ReturnType<typeof import("@workapi/spec/validators").createAjv>} Ajv Ajv's types come through
 *   @workapi/spec, which makes the instances
 * @typedef {ReturnType<Ajv["compile"]>} Validate
 * @typedef {NonNullable<Validate["errors"]>[number]} AjvError
 * @typedef {(document: import("./json.js").Json, kind: "inputs" | "outputs", pointer: string, all?: boolean)
 *   => Validate | undefined} Validators
 * @typedef {{ in: "request" | "response", status: string | undefined, length: number }} Body
 * @typedef {{ operation: import("./json.js").Json, pointer: string }} Entry an operation on one side
 */
/**
 * One Ajv per document and kind, each compiled schema once (by pointer). `all` makes the same validator list
 * every error: the server's request options stop at the first, which may be about another change; the
 * verdict is always the server's, the list only picks the error at the finding's place.
 * @returns {Validators}
 */
function validators() {
  /** @type {Map<object, Record<string, { ajv: Ajv, compiled: Map<string, Validate | undefined> }>>} */
  const made = new Map();
  return (document, kind, pointer, all = false) => {
    const name = all ? `${kind}+all` : kind;
    let entry = made.get(document)?.[name];
    if (!entry) {
      const ajv = createAjv(kind, all ? { allErrors: true } : {});
      ajv.addSchema(document, ID);
      entry = { ajv, compiled: new Map() };
      made.set(document, { ...made.get(document), [name]: entry });
    }
    if (!entry.compiled.has(pointer)) {
      /** @type {Validate | undefined} */
      let validate;
      try {
        validate = entry.ajv.compile({ $ref: `${ID}${encodeURI(pointer)}` });
      } catch {
        validate = undefined; // A schema Ajv cannot compile shows nothing; the finding stands as it is.
      }
      entry.compiled.set(pointer, validate);
    }
    return entry.compiled.get(pointer);
  };
}

/** The named examples of a media type object: `example`, and each of `examples` (their `value`). */
function examplesOf(
  /** @type {import("./json.js").Json} */ document,
  /** @type {import("./json.js").Json} */ media,
  /** @type {string} */ pointer,
) {
  /** @type {{ name: string, value: unknown }[]} */
  const out = [];
  if (media.example !== undefined) out.push({ name: "example", value: media.example });
  for (const [name, raw] of Object.entries(isObject(media.examples) ? media.examples : {})) {
    const node = resolve(document, raw, child(pointer, "examples", name)).node;
    if (isObject(node) && node.value !== undefined) out.push({ name, value: node.value });
  }
  return out;
}

/**
 * The media types of a request body or response: [media, node, pointer].
 * @returns {[string, import("./json.js").Json, string][]}
 */
function contentOf(
  /** @type {import("./json.js").Json} */ document,
  /** @type {import("./json.js").Json} */ raw,
  /** @type {string} */ pointer,
) {
  if (raw === undefined) return [];
  const resolved = resolve(document, raw, pointer);
  const content = resolved.node?.content;
  if (!isObject(content)) return [];
  return Object.entries(content)
    .filter(([, node]) => isObject(node))
    .map(
      ([media, node]) =>
        /** @type {[string, import("./json.js").Json, string]} */ ([
          media,
          node,
          child(resolved.pointer, "content", media),
        ]),
    );
}

/**
 * Which body a place is in: `body...` the request's, `response(201)...` that status's answer.
 * @param {string} where @returns {Body | undefined}
 */
function bodyOf(where) {
  const match = /^(?:body|response\((\w+)\))/.exec(where);
  if (!match) return undefined;
  /** @type {Body["in"]} */
  const side = match[1] === undefined ? "request" : "response";
  return { in: side, status: match[1], length: match[0].length };
}

/** The rest of a place as a path in the body: `.work.tags[].id` -> `/work/tags/[]/id` (a media label dropped). */
const pathOf = (/** @type {string} */ where, /** @type {Body} */ body) =>
  where
    .slice(body.length)
    .replace(/^\([^)]*\)/, "")
    .replace(/\[\]/g, ".[]")
    .replace(/\./g, "/");

/** Where an Ajv error is, as a path like pathOf's (array indices as `[]`, a missing name appended). */
function errorPath(/** @type {AjvError} */ error) {
  const extra = error.params?.missingProperty ?? error.params?.additionalProperty;
  return `${error.instancePath.replace(/\/\d+(?=\/|$)/g, "/[]")}${extra === undefined ? "" : `/${extra}`}`;
}

const within = (/** @type {string} */ a, /** @type {string} */ b) =>
  a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`) || b === "" || a === "";

/**
 * The evidence for each error-level finding that the examples can show, added as `evidence`.
 * @param {import("./index.js").Finding[]} findings
 * @param {import("./json.js").Json} base @param {import("./json.js").Json} head
 */
export function attachEvidence(findings, base, head) {
  const errors = findings.filter((f) => f.level === "error");
  if (errors.length === 0) return;
  const validate = validators();
  const ops = { base: operationsByKey(base), head: operationsByKey(head) };
  // What each operation's examples show across the change depends on the operation and the body only: worked
  // out once, then matched to each finding's place (a shared schema's finding may reach hundreds).
  /** @type {Map<string, (Omit<import("../index.js").Evidence, "operationId" | "error"> & { errors: AjvError[] })[]>} */
  const memo = new Map();
  for (const finding of errors) {
    /** @type {import("../index.js").Evidence[]} */
    const evidence = [];
    for (const reach of finding.operations) {
      const body = bodyOf(reach.where);
      const key = `${reach.method} ${templateOf(reach.path)}`;
      const b = ops.base.get(key);
      const h = ops.head.get(key);
      if (!body || !b || !h) continue;
      const id = `${key}|${body.in}|${body.status}`;
      if (!memo.has(id)) memo.set(id, [...refusals(body, b, h, { base, head }, validate)]);
      const shown = memo.get(id) ?? [];
      if (shown.length === 0) continue;
      const path = pathOf(reach.where, body);
      for (const { errors: all, ...item } of shown) {
        const error = all.find((e) => within(errorPath(e), path));
        if (!error || evidence.length >= MOST) continue;
        if (evidence.some((e) => e.example === item.example && e.operationId === reach.operationId)) continue;
        evidence.push({ operationId: reach.operationId, ...item, error: describe(error) });
      }
    }
    if (evidence.length > 0) finding.evidence = evidence;
  }
}

const describe = (/** @type {AjvError} */ error) =>
  `${error.instancePath || "(the body)"} ${error.message}${error.params?.missingProperty ? ` (${error.params.missingProperty})` : ""}`;

/**
 * The examples of one operation's body at `place` that the other side refuses, with every error the validator
 * lists: requests from the base against the head's schema, answers from the head against the base's.
 */
function* refusals(
  /** @type {Body} */ place,
  /** @type {Entry} */ b,
  /** @type {Entry} */ h,
  /** @type {{ base: import("./json.js").Json, head: import("./json.js").Json }} */ docs,
  /** @type {Validators} */ validate,
) {
  const request = place.in === "request";
  const [from, to] = /** @type {["base", "head"] | ["head", "base"]} */ (
    request ? ["base", "head"] : ["head", "base"]
  );
  const entry = { base: b, head: h };
  const kind = request ? "inputs" : "outputs";
  /** @param {"base" | "head"} side @returns {[import("./json.js").Json, string]} */
  const bodyOf = (side) =>
    request
      ? [entry[side].operation.requestBody, child(entry[side].pointer, "requestBody")]
      : [
          entry[side].operation.responses?.[place.status ?? ""],
          child(entry[side].pointer, "responses", place.status ?? ""),
        ];
  const target = new Map(
    contentOf(docs[to], ...bodyOf(to)).map(([media, node, pointer]) => [media, { node, pointer }]),
  );
  for (const [media, node, pointer] of contentOf(docs[from], ...bodyOf(from))) {
    const other = target.get(media);
    if (!other || node.schema === undefined || other.node.schema === undefined) continue;
    // No example, nothing to compile: validators are made only for media types that have examples.
    const examples = examplesOf(docs[from], node, pointer);
    if (examples.length === 0) continue;
    const own = validate(docs[from], kind, child(pointer, "schema"));
    const theirs = validate(docs[to], kind, child(other.pointer, "schema"));
    if (!own || !theirs) continue;
    for (const example of examples) {
      if (!own(structuredClone(example.value))) continue;
      if (theirs(structuredClone(example.value))) continue;
      const listing = validate(docs[to], kind, child(other.pointer, "schema"), true);
      listing?.(structuredClone(example.value));
      yield {
        in: place.in,
        ...(request ? {} : { status: place.status }),
        media,
        example: example.name,
        refusedBy: to,
        errors: listing?.errors ?? [],
      };
    }
  }
}
