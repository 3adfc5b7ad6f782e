#!/usr/bin/env node
// Compares two bundled contracts and classifies every change to an operation as breaking or not, taking the
// direction of the data into account: what a caller sends (parameters, request bodies) may only get looser,
// what a reader receives (success bodies) may only get richer.
//
//   pnpm contract:diff [base]                        the bundle at a git ref against the working tree's
//   pnpm contract:diff --base-file a.json --head-file b.json
//   pnpm contract:diff --format markdown|text|json --fail-on-breaking
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * @typedef {Record<string, any>} Json
 * @typedef {"breaking" | "non-breaking"} Severity
 * @typedef {{ operationId: string, method: string, path: string }} OperationRef
 * @typedef {{ severity: Severity, rule: string, operation: OperationRef, where: string, message: string }} Change
 * @typedef {{ changes: Change[], breaking: number, nonBreaking: number, schemas: { added: string[], removed: string[] } }} ContractDiff
 * @typedef {"request" | "response"} Direction
 */

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const UPPER_BOUNDS = ["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties"];
const LOWER_BOUNDS = ["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"];
const MAX_DEPTH = 100;
const BREAKING = "breaking";
const NON_BREAKING = "non-breaking";

/** Follows a local JSON pointer (`#/components/schemas/Work`); anything else resolves to undefined. */
function pointer(doc, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  let node = doc;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object") return undefined;
    node = node[key];
  }
  return node;
}

/** Resolves a chain of $refs: the node it ends on and the last ref followed (the name it goes by). */
function deref(doc, node) {
  let ref;
  for (let hops = 0; hops < 32 && node && typeof node === "object" && typeof node.$ref === "string"; hops++) {
    ref = node.$ref;
    node = pointer(doc, ref);
  }
  return { node: node && typeof node === "object" ? node : {}, ref };
}

/** The refs a schema stands for: its $ref, or those of an allOf wrapper (`allOf: [$ref], description`). */
function identity(schema) {
  if (!schema || typeof schema !== "object") return "";
  if (typeof schema.$ref === "string") return schema.$ref;
  if (!Array.isArray(schema.allOf)) return "";
  return schema.allOf.map(identity).filter(Boolean).join("&");
}

const refName = (ref) => (ref ? ref.split("/").pop() : undefined);
const list = (values) => values.map((value) => JSON.stringify(value)).join(", ");

function refsIn(node, out = []) {
  if (Array.isArray(node)) for (const item of node) refsIn(item, out);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.push(value);
      else refsIn(value, out);
    }
  }
  return out;
}

/**
 * Merges allOf members into one view of a schema: properties, required, closedness and the first value of
 * every other keyword. A property that two members both describe becomes the allOf of both.
 */
function flatten(doc, schema, chain = []) {
  const { node, ref } = deref(doc, schema);
  if (ref && chain.includes(ref)) return {};
  const inner = ref ? [...chain, ref] : chain;
  const { allOf, ...own } = node;
  const out = { ...own, properties: { ...(own.properties ?? {}) }, required: [...(own.required ?? [])] };
  for (const member of allOf ?? []) {
    const part = flatten(doc, member, inner);
    for (const [name, property] of Object.entries(part.properties ?? {})) {
      out.properties[name] = out.properties[name] ? { allOf: [out.properties[name], property] } : property;
    }
    out.required.push(...(part.required ?? []));
    if (part.additionalProperties === false) out.additionalProperties = false;
    for (const [key, value] of Object.entries(part)) {
      if (key !== "properties" && key !== "required" && out[key] === undefined) out[key] = value;
    }
  }
  return out;
}

function typesOf(schema) {
  let types;
  if (Array.isArray(schema.type)) types = new Set(schema.type);
  else if (typeof schema.type === "string") types = new Set([schema.type]);
  else if (schema.oneOf || schema.anyOf) return undefined;
  else if (Object.keys(schema.properties ?? {}).length > 0 || schema.additionalProperties !== undefined) {
    types = new Set(["object"]);
  } else if (schema.items) types = new Set(["array"]);
  else return undefined;
  if (schema.nullable === true) types.add("null");
  return types;
}

const covers = (types, type) => types.has(type) || (type === "integer" && types.has("number"));
const typeText = (types) => (types ? [...types].join(" | ") : "any");

function enumOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  return undefined;
}

function securityAlternatives(operation, doc) {
  const requirements = operation.security ?? doc.security ?? [];
  return requirements.map((requirement) => {
    const entries = Object.entries(requirement).sort(([a], [b]) => a.localeCompare(b));
    if (entries.length === 0) return "no authentication";
    return entries
      .map(([scheme, scopes]) => (scopes.length ? `${scheme}: ${[...scopes].sort().join(", ")}` : scheme))
      .join(" + ");
  });
}

function parametersOf(doc, pathItem, operation) {
  const out = new Map();
  for (const raw of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
    const { node } = deref(doc, raw);
    if (!node.name || !node.in) continue;
    const name = node.in === "header" ? node.name.toLowerCase() : node.name;
    out.set(`${node.in}.${name}`, node);
  }
  return out;
}

const mediaWhere = (prefix, media) => (media === "application/json" ? prefix : `${prefix}(${media})`);

/**
 * Compares two bundled contracts operation by operation; pure: neither document is changed.
 * @param {Json} base
 * @param {Json} head
 * @returns {ContractDiff}
 */
export function diffContracts(base, head) {
  /** @type {Change[]} */
  const changes = [];
  const sameMemo = new Map();

  /** True when the component a ref names, and everything it reaches, is identical in both contracts. */
  function sameRef(ref) {
    if (sameMemo.has(ref)) return sameMemo.get(ref);
    const seen = new Set([ref]);
    const queue = [ref];
    let same = true;
    while (same && queue.length > 0) {
      const current = queue.pop();
      const b = pointer(base, current);
      const h = pointer(head, current);
      if (b === undefined || h === undefined || JSON.stringify(b) !== JSON.stringify(h)) same = false;
      else {
        for (const next of refsIn(b)) {
          if (!seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      }
    }
    sameMemo.set(ref, same);
    return same;
  }

  function unchanged(b, h) {
    if (b === h) return true;
    if (JSON.stringify(b) !== JSON.stringify(h)) return false;
    return refsIn(b).every(sameRef);
  }

  for (const [path, pathItem] of Object.entries(head.paths ?? {})) {
    for (const method of METHODS) {
      const headOp = pathItem?.[method];
      if (!headOp) continue;
      const baseOp = base.paths?.[path]?.[method];
      const operation = { operationId: headOp.operationId ?? `${method} ${path}`, method, path };
      const emit = (severity, rule, where, message) =>
        changes.push({ severity, rule, operation, where, message });
      if (!baseOp) emit(NON_BREAKING, "operation-added", "", "operation added");
      else diffOperation(baseOp, base.paths[path], headOp, pathItem, emit);
    }
  }
  for (const [path, pathItem] of Object.entries(base.paths ?? {})) {
    for (const method of METHODS) {
      const baseOp = pathItem?.[method];
      if (!baseOp || head.paths?.[path]?.[method]) continue;
      const operation = { operationId: baseOp.operationId ?? `${method} ${path}`, method, path };
      const remaining = METHODS.filter((m) => head.paths?.[path]?.[m]).map((m) => m.toUpperCase());
      changes.push(
        remaining.length > 0
          ? {
              severity: BREAKING,
              rule: "method-removed",
              operation,
              where: "",
              message: `method ${method.toUpperCase()} removed from ${path} (still answers ${remaining.join(", ")})`,
            }
          : {
              severity: BREAKING,
              rule: "operation-removed",
              operation,
              where: "",
              message: "operation removed",
            },
      );
    }
  }
  changes.sort(
    (a, b) =>
      a.operation.path.localeCompare(b.operation.path) ||
      METHODS.indexOf(a.operation.method) - METHODS.indexOf(b.operation.method),
  );

  function diffOperation(baseOp, basePathItem, headOp, headPathItem, emit) {
    // Security: every alternative (a requirement object) is a way in; losing one locks callers out.
    const baseAlternatives = securityAlternatives(baseOp, base);
    const headAlternatives = securityAlternatives(headOp, head);
    for (const alternative of baseAlternatives.filter((a) => !headAlternatives.includes(a))) {
      emit(BREAKING, "security-alternative-removed", "security", `scope alternative removed: ${alternative}`);
    }
    for (const alternative of headAlternatives.filter((a) => !baseAlternatives.includes(a))) {
      emit(NON_BREAKING, "security-alternative-added", "security", `scope alternative added: ${alternative}`);
    }

    const basePaging = baseOp["x-pagination"];
    const headPaging = headOp["x-pagination"];
    if (basePaging && !headPaging) {
      emit(
        BREAKING,
        "pagination-removed",
        "x-pagination",
        "no longer paginates: clients iterate differently",
      );
    } else if (!basePaging && headPaging) {
      emit(BREAKING, "pagination-added", "x-pagination", "now paginates: clients iterate differently");
    } else if (basePaging && JSON.stringify(basePaging) !== JSON.stringify(headPaging)) {
      emit(
        BREAKING,
        "pagination-changed",
        "x-pagination",
        `pagination changed from ${JSON.stringify(basePaging)} to ${JSON.stringify(headPaging)}`,
      );
    }

    diffParameters(baseOp, basePathItem, headOp, headPathItem, emit);
    diffRequestBody(baseOp.requestBody, headOp.requestBody, emit);
    diffResponses(baseOp.responses ?? {}, headOp.responses ?? {}, emit);
  }

  function diffParameters(baseOp, basePathItem, headOp, headPathItem, emit) {
    const before = parametersOf(base, basePathItem, baseOp);
    const after = parametersOf(head, headPathItem, headOp);
    for (const [key, parameter] of after) {
      const old = before.get(key);
      if (!old) {
        if (parameter.required) {
          emit(BREAKING, "parameter-added-required", key, "new required parameter");
        } else emit(NON_BREAKING, "parameter-added-optional", key, "optional parameter added");
        continue;
      }
      if (!old.required && parameter.required) {
        emit(BREAKING, "parameter-became-required", key, "parameter became required");
      } else if (old.required && !parameter.required) {
        emit(NON_BREAKING, "parameter-became-optional", key, "parameter became optional");
      }
      diffSchema(old.schema ?? {}, parameter.schema ?? {}, key, "request", emit, []);
    }
    for (const key of before.keys()) {
      if (!after.has(key)) {
        emit(BREAKING, "parameter-removed", key, "parameter removed: callers sending it lose its effect");
      }
    }
  }

  function diffRequestBody(baseBody, headBody, emit) {
    const b = baseBody ? deref(base, baseBody).node : undefined;
    const h = headBody ? deref(head, headBody).node : undefined;
    if (!b && !h) return;
    if (!b && h) {
      if (h.required) emit(BREAKING, "body-added-required", "body", "new required request body");
      else emit(NON_BREAKING, "body-added-optional", "body", "optional request body added");
      return;
    }
    if (b && !h) {
      emit(BREAKING, "body-removed", "body", "request body removed: callers sending one may get 400");
      return;
    }
    if (!b.required && h.required)
      emit(BREAKING, "body-became-required", "body", "request body became required");
    if (b.required && !h.required) {
      emit(NON_BREAKING, "body-became-optional", "body", "request body became optional");
    }
    diffContent(b.content ?? {}, h.content ?? {}, "body", "request", emit);
  }

  function diffContent(baseContent, headContent, prefix, direction, emit) {
    for (const [media, item] of Object.entries(headContent)) {
      const where = mediaWhere(prefix, media);
      if (!baseContent[media]) {
        emit(NON_BREAKING, "media-type-added", where, `media type ${media} added`);
        continue;
      }
      diffSchema(baseContent[media].schema ?? {}, item.schema ?? {}, where, direction, emit, []);
    }
    for (const media of Object.keys(baseContent)) {
      if (!headContent[media]) {
        emit(BREAKING, "media-type-removed", mediaWhere(prefix, media), `media type ${media} removed`);
      }
    }
  }

  function diffResponses(baseResponses, headResponses, emit) {
    const statuses = [...new Set([...Object.keys(baseResponses), ...Object.keys(headResponses)])].sort();
    for (const status of statuses) {
      const b = baseResponses[status] ? deref(base, baseResponses[status]).node : undefined;
      const h = headResponses[status] ? deref(head, headResponses[status]).node : undefined;
      const success = /^2/.test(status);
      const where = `responses.${status}`;
      if (!success) {
        if (b && !h)
          emit(NON_BREAKING, "error-status-removed", where, `status ${status} no longer documented`);
        if (!b && h) emit(NON_BREAKING, "error-status-added", where, `status ${status} now documented`);
        continue;
      }
      if (b && !h) emit(BREAKING, "success-status-removed", where, `success status ${status} removed`);
      else if (!b && h) emit(NON_BREAKING, "success-status-added", where, `success status ${status} added`);
      else if (b && h) {
        const prefix = status === "200" ? "response" : `response(${status})`;
        diffContent(b.content ?? {}, h.content ?? {}, prefix, "response", emit);
      }
    }
  }

  /**
   * Compares two schemas at `where`. `stack` holds one entry per level walked on the way here: the pair of
   * refs entered (`Thing|Thing`), so a recursive schema is walked once per path and the walk ends.
   * @param {Direction} direction
   */
  function diffSchema(baseSchema, headSchema, where, direction, emit, stack) {
    if (unchanged(baseSchema, headSchema) || stack.length >= MAX_DEPTH) return;
    const key = `${identity(baseSchema)}|${identity(headSchema)}`;
    if (key !== "|" && stack.includes(key)) return;
    stack = [...stack, key];
    const b = flatten(base, baseSchema);
    const h = flatten(head, headSchema);
    const request = direction === "request";

    // A union on one side only: the shapes cannot be compared field by field.
    if (Boolean(b.oneOf ?? b.anyOf) !== Boolean(h.oneOf ?? h.anyOf)) {
      const text = (b.oneOf ?? b.anyOf) ? "no longer a union (oneOf/anyOf)" : "became a union (oneOf/anyOf)";
      emit(BREAKING, "type-changed", where, text);
      return;
    }

    // Types. A request may accept more types than before, a response may answer fewer.
    const bt = typesOf(b);
    const ht = typesOf(h);
    if (bt && ht) {
      const same = bt.size === ht.size && [...bt].every((t) => ht.has(t));
      if (!same) {
        const widened = [...bt].every((t) => covers(ht, t));
        const narrowed = [...ht].every((t) => covers(bt, t));
        const text = `type changed from ${typeText(bt)} to ${typeText(ht)}`;
        if (request && widened) emit(NON_BREAKING, "type-widened", where, text);
        else if (!request && narrowed) emit(NON_BREAKING, "type-narrowed", where, text);
        else emit(BREAKING, "type-changed", where, text);
        // Nothing in common (string -> object): the shapes below cannot be compared field by field.
        if (![...bt].some((t) => covers(ht, t)) && ![...ht].some((t) => covers(bt, t))) return;
      }
    } else if (bt || ht) {
      // A missing type accepts anything: gaining one narrows, losing one widens.
      const text = `type changed from ${typeText(bt)} to ${typeText(ht)}`;
      const widened = !ht;
      if (request && widened) emit(NON_BREAKING, "type-widened", where, text);
      else if (!request && !widened) emit(NON_BREAKING, "type-narrowed", where, text);
      else emit(BREAKING, "type-changed", where, text);
    }

    diffEnum(b, h, where, request, emit);
    diffBounds(b, h, where, request, emit);
    diffFormat(b, h, where, request, emit);
    diffVariants(b, h, where, direction, emit, stack);

    // Object fields.
    const baseRequired = new Set(b.required);
    const headRequired = new Set(h.required);
    const closed = h.additionalProperties === false || h.unevaluatedProperties === false;
    for (const [name, property] of Object.entries(h.properties)) {
      const at = `${where}.${name}`;
      if (!(name in b.properties)) {
        if (!request) emit(NON_BREAKING, "field-added", at, "field added");
        else if (headRequired.has(name)) emit(BREAKING, "field-added-required", at, "new required field");
        else emit(NON_BREAKING, "field-added-optional", at, "optional field added");
        continue;
      }
      const was = baseRequired.has(name);
      const is = headRequired.has(name);
      if (request && !was && is) emit(BREAKING, "field-became-required", at, "field became required");
      if (request && was && !is) emit(NON_BREAKING, "field-became-optional", at, "field became optional");
      if (!request && was && !is) {
        emit(BREAKING, "field-became-optional", at, "field no longer required: readers cannot rely on it");
      }
      if (!request && !was && is) emit(NON_BREAKING, "field-became-required", at, "field now always present");
      diffSchema(b.properties[name], property, at, direction, emit, stack);
    }
    for (const name of Object.keys(b.properties)) {
      if (name in h.properties) continue;
      const at = `${where}.${name}`;
      if (!request) emit(BREAKING, "field-removed", at, "field removed: readers lose it");
      else if (closed) {
        emit(
          BREAKING,
          "field-removed",
          at,
          "field removed from a closed body: clients sending it now get 400",
        );
      } else emit(NON_BREAKING, "field-removed", at, "field removed: the server ignores it now");
    }
    if (request && bt?.has("object") && ht?.has("object")) {
      const wasClosed = b.additionalProperties === false || b.unevaluatedProperties === false;
      if (!wasClosed && closed) {
        emit(BREAKING, "body-closed", where, "unknown fields now rejected (additionalProperties: false)");
      }
      if (wasClosed && !closed) emit(NON_BREAKING, "body-opened", where, "unknown fields now accepted");
    }
    if (isSchema(b.additionalProperties) && isSchema(h.additionalProperties)) {
      diffSchema(b.additionalProperties, h.additionalProperties, `${where}.*`, direction, emit, stack);
    }
    if (isSchema(b.items) && isSchema(h.items)) {
      diffSchema(b.items, h.items, `${where}[]`, direction, emit, stack);
    }
    // Tuples (prefixItems): a position's schema is a constraint on what callers send, a promise to readers.
    const basePositions = b.prefixItems ?? [];
    const headPositions = h.prefixItems ?? [];
    for (let i = 0; i < Math.max(basePositions.length, headPositions.length); i++) {
      const at = `${where}[${i}]`;
      if (i < basePositions.length && i < headPositions.length) {
        diffSchema(basePositions[i], headPositions[i], at, direction, emit, stack);
      } else if (i < basePositions.length) {
        emit(request ? NON_BREAKING : BREAKING, "position-removed", at, "tuple position no longer described");
      } else emit(request ? BREAKING : NON_BREAKING, "position-added", at, "tuple position now described");
    }
  }

  function diffVariants(b, h, where, direction, emit, stack) {
    const baseVariants = b.oneOf ?? b.anyOf;
    const headVariants = h.oneOf ?? h.anyOf;
    if (!baseVariants || !headVariants) return;
    const request = direction === "request";
    const keyed = (variants) => new Map(variants.map((v, i) => [refName(v.$ref) ?? `#${i + 1}`, v]));
    const before = keyed(baseVariants);
    const after = keyed(headVariants);
    for (const [key, variant] of after) {
      if (before.has(key)) diffSchema(before.get(key), variant, `${where}(${key})`, direction, emit, stack);
      else if (request) emit(NON_BREAKING, "variant-added", where, `variant ${key} added`);
      else emit(BREAKING, "variant-added", where, `variant ${key} added: may break exhaustive readers`);
    }
    for (const key of before.keys()) {
      if (after.has(key)) continue;
      if (request)
        emit(BREAKING, "variant-removed", where, `variant ${key} removed: callers sending it get 400`);
      else emit(NON_BREAKING, "variant-removed", where, `variant ${key} removed`);
    }
  }

  return {
    changes,
    breaking: changes.filter((c) => c.severity === BREAKING).length,
    nonBreaking: changes.filter((c) => c.severity === NON_BREAKING).length,
    schemas: {
      added: Object.keys(head.components?.schemas ?? {}).filter(
        (n) => !(n in (base.components?.schemas ?? {})),
      ),
      removed: Object.keys(base.components?.schemas ?? {}).filter(
        (n) => !(n in (head.components?.schemas ?? {})),
      ),
    },
  };
}

const isSchema = (value) => value !== null && typeof value === "object";

function diffEnum(b, h, where, request, emit) {
  const be = enumOf(b);
  const he = enumOf(h);
  if (!be && !he) return;
  const key = (value) => JSON.stringify(value);
  if (be && he) {
    const removed = be.filter((v) => !he.some((w) => key(w) === key(v)));
    const added = he.filter((v) => !be.some((w) => key(w) === key(v)));
    if (removed.length > 0)
      emit(BREAKING, "enum-value-removed", where, `enum value removed: ${list(removed)}`);
    if (added.length > 0 && request) {
      emit(NON_BREAKING, "enum-value-added", where, `enum value added: ${list(added)}`);
    }
    if (added.length > 0 && !request) {
      emit(
        BREAKING,
        "enum-value-added",
        where,
        `enum value added: ${list(added)} (may break exhaustive readers)`,
      );
    }
  } else if (be) {
    if (request) emit(NON_BREAKING, "enum-removed", where, `no longer limited to ${list(be)}`);
    else
      emit(
        BREAKING,
        "enum-removed",
        where,
        `no longer limited to ${list(be)} (may break exhaustive readers)`,
      );
  } else if (he) {
    if (request) emit(BREAKING, "enum-added", where, `now limited to ${list(he)}`);
    else emit(NON_BREAKING, "enum-added", where, `now limited to ${list(he)}`);
  }
}

/** Bounds: in a request a tighter bound rejects values callers send; in a response any bound is a note. */
function diffBounds(b, h, where, request, emit) {
  for (const keyword of [...UPPER_BOUNDS, ...LOWER_BOUNDS]) {
    const was = typeof b[keyword] === "number" ? b[keyword] : undefined;
    const is = typeof h[keyword] === "number" ? h[keyword] : undefined;
    if (was === is) continue;
    const upper = UPPER_BOUNDS.includes(keyword);
    let tighter;
    let text;
    if (was === undefined) {
      tighter = true;
      text = `${keyword} ${is} added`;
    } else if (is === undefined) {
      tighter = false;
      text = `${keyword} ${was} removed`;
    } else {
      tighter = upper ? is < was : is > was;
      text = `${keyword} ${is < was ? "lowered" : "raised"} from ${was} to ${is}`;
    }
    const rule = tighter ? "bound-tightened" : "bound-loosened";
    emit(request && tighter ? BREAKING : NON_BREAKING, rule, where, text);
  }
}

/** Format is part of the type; a pattern only restricts what callers may send. */
function diffFormat(b, h, where, request, emit) {
  if (b.format !== h.format) {
    if (b.format && h.format) {
      emit(BREAKING, "format-changed", where, `format changed from ${b.format} to ${h.format}`);
    } else if (h.format) {
      emit(request ? BREAKING : NON_BREAKING, "format-added", where, `format ${h.format} added`);
    } else emit(request ? NON_BREAKING : BREAKING, "format-removed", where, `format ${b.format} removed`);
  }
  if (b.pattern !== h.pattern) {
    const rule =
      h.pattern === undefined
        ? "pattern-removed"
        : b.pattern === undefined
          ? "pattern-added"
          : "pattern-changed";
    const text = h.pattern === undefined ? `pattern ${b.pattern} removed` : `pattern now ${h.pattern}`;
    emit(request && rule !== "pattern-removed" ? BREAKING : NON_BREAKING, rule, where, text);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Report

const opLabel = (op) => `${op.operationId} (${op.method.toUpperCase()} ${op.path})`;

function groupByOperation(changes) {
  const groups = new Map();
  for (const change of changes) {
    const key = `${change.operation.method} ${change.operation.path}`;
    if (!groups.has(key)) groups.set(key, { operation: change.operation, changes: [] });
    groups.get(key).changes.push(change);
  }
  // Operations with breaking changes first, each group's breaking changes first.
  const all = [...groups.values()];
  for (const group of all) {
    group.changes.sort((a, b) => Number(b.severity === BREAKING) - Number(a.severity === BREAKING));
  }
  return [
    ...all.filter((g) => g.changes[0].severity === BREAKING),
    ...all.filter((g) => g.changes[0].severity !== BREAKING),
  ];
}

/**
 * Renders a diff as `markdown`, `text` or `json`; `labels` names the two sides in the heading.
 * @param {ContractDiff} diff
 * @param {"markdown" | "text" | "json"} format
 * @param {{ base?: string, head?: string }} [labels]
 * @returns {string}
 */
export function formatReport(diff, format, labels = {}) {
  if (format === "json") return `${JSON.stringify({ ...labels, ...diff }, null, 2)}\n`;
  const md = format === "markdown";
  const code = (s) => (md ? `\`${s}\`` : s);
  const summary = `${diff.breaking} breaking, ${diff.nonBreaking} non-breaking`;
  const sides = labels.base || labels.head ? ` (${labels.base ?? "base"} -> ${labels.head ?? "head"})` : "";
  const out = [md ? `## Contract changes: ${summary}${sides}` : `Contract changes: ${summary}${sides}`, ""];

  const added = diff.changes.filter((c) => c.rule === "operation-added");
  const removed = diff.changes.filter((c) => c.rule === "operation-removed" || c.rule === "method-removed");
  const changed = diff.changes.filter((c) => !added.includes(c) && !removed.includes(c));
  const severity = (c) => (c.severity === BREAKING ? (md ? "**BREAKING**" : "BREAKING    ") : "non-breaking");
  const opHead = (op) => `${code(op.operationId)} ${code(`${op.method.toUpperCase()} ${op.path}`)}`;

  if (removed.length > 0) {
    out.push(md ? "### Operations removed (BREAKING)" : "Operations removed (BREAKING):", "");
    for (const c of removed)
      out.push(md ? `- ${opHead(c.operation)}: ${c.message}` : `  ${opLabel(c.operation)}: ${c.message}`);
    out.push("");
  }
  if (changed.length > 0) {
    out.push(md ? "### Changed operations" : "Changed operations:", "");
    for (const group of groupByOperation(changed)) {
      out.push(md ? `#### ${opHead(group.operation)}` : `  ${opLabel(group.operation)}`);
      if (md) out.push("");
      for (const c of group.changes) {
        const where = c.where ? `${code(c.where)}: ` : "";
        out.push(md ? `- ${severity(c)} ${where}${c.message}` : `    ${severity(c)}  ${where}${c.message}`);
      }
      out.push("");
    }
  }
  if (added.length > 0) {
    out.push(md ? "### Operations added (non-breaking)" : "Operations added (non-breaking):", "");
    for (const c of added) out.push(md ? `- ${opHead(c.operation)}` : `  ${opLabel(c.operation)}`);
    out.push("");
  }
  if (diff.changes.length === 0) out.push("No changes to any operation.", "");
  const names = (xs) => (xs.length > 0 ? xs.map(code).join(", ") : "none");
  out.push(`Schemas added: ${names(diff.schemas.added)}`);
  if (md) out.push("");
  out.push(`Schemas removed: ${names(diff.schemas.removed)}`);
  return `${out.join("\n")}\n`;
}

// ---------------------------------------------------------------------------------------------------------
// Command line

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BUNDLE = "packages/spec/openapi.json";
const USAGE = `Usage: pnpm contract:diff [base-ref] [--base-file <path>] [--head-file <path>]
                          [--format markdown|text|json] [--fail-on-breaking]

Compares ${BUNDLE} at base-ref (default origin/main, else main, else HEAD~1) with the working tree's copy,
or --base-file with --head-file. Run \`pnpm generate\` first so the working tree's bundle is current.
--fail-on-breaking exits 1 when a change is breaking.`;

class UsageError extends Error {}

function parseArgs(argv) {
  const options = {
    ref: undefined,
    baseFile: undefined,
    headFile: undefined,
    format: undefined,
    fail: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith("--") ? argv[i].split(/=(.*)/s) : [argv[i]];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === "--help" || flag === "-h") options.help = true;
    else if (flag === "--fail-on-breaking") options.fail = true;
    else if (flag === "--base-file") options.baseFile = value();
    else if (flag === "--head-file") options.headFile = value();
    else if (flag === "--format") {
      options.format = value();
      if (!["markdown", "text", "json"].includes(options.format)) {
        throw new UsageError(`--format must be markdown, text or json, not ${options.format}`);
      }
    } else if (flag.startsWith("-")) throw new UsageError(`unknown option ${flag}`);
    else if (options.ref === undefined) options.ref = flag;
    else throw new UsageError(`one base ref only (got ${options.ref} and ${flag})`);
  }
  if (options.ref && options.baseFile) throw new UsageError("give a base ref or --base-file, not both");
  return options;
}

function git(args) {
  return execFileSync("git", args, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 28,
  });
}

function refExists(ref) {
  try {
    git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

function parseJson(text, where) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${where} is not JSON (${err.message})`);
  }
}

function readFile(path) {
  try {
    return parseJson(readFileSync(path, "utf8"), path);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${path}: ${err.message}`);
  }
}

function readBase(options) {
  if (options.baseFile) return { doc: readFile(options.baseFile), label: options.baseFile };
  const ref = options.ref ?? ["origin/main", "main", "HEAD~1"].find(refExists);
  if (!ref)
    throw new UsageError("no base to compare with: pass a git ref (for example HEAD~1) or --base-file");
  let text;
  try {
    text = git(["show", `${ref}:${BUNDLE}`]);
  } catch (err) {
    const why = String(err.stderr ?? err.message)
      .trim()
      .split("\n")[0]
      .replace(/\.$/, "");
    throw new UsageError(
      `cannot read ${BUNDLE} at ${ref} (${why}). Pass a ref that has the bundle (git fetch origin main, or HEAD~1), or --base-file <path>.`,
    );
  }
  let label = ref;
  try {
    label = `${ref} (${git(["rev-parse", "--short", `${ref}^{commit}`]).trim()})`;
  } catch {
    // a tree or blob ref has no commit to name
  }
  return { doc: parseJson(text, `${BUNDLE} at ${ref}`), label };
}

function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
    if (options.help) {
      console.log(USAGE);
      return 0;
    }
    const baseSide = readBase(options);
    const headPath = options.headFile ?? resolve(root, BUNDLE);
    const head = readFile(headPath);
    const format = options.format ?? (process.stdout.isTTY ? "text" : "markdown");
    const diff = diffContracts(baseSide.doc, head);
    const headLabel = options.headFile ?? `working tree ${relative(root, headPath)}`;
    process.stdout.write(formatReport(diff, format, { base: baseSide.label, head: headLabel }));
    return options.fail && diff.breaking > 0 ? 1 : 0;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`contract:diff: ${err.message}\n\n${USAGE}`);
    return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // A reader that stops early (`| head`) is not an error.
  process.stdout.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
  });
  process.exitCode = main();
}
