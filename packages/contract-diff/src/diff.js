// Compares two bundled contracts and reports every change to an operation under a rule id (see rules.js),
// taking the direction of the data into account: what a caller sends (parameters, request bodies) may only
// get looser, what a reader receives (success bodies) may only get richer.
import { deref, HTTP_METHODS, jsonPointer } from "@workapi/spec";
import { LEVELS, levelOf } from "./rules.js";

/**
 * @typedef {Record<string, any>} Json
 * @typedef {import("./rules.js").Level} Level
 * @typedef {{ operationId: string, method: string, path: string }} OperationRef
 * @typedef {{ rule: string, level: Level, operation: OperationRef, where: string, message: string }} Finding
 * @typedef {{ findings: Finding[], counts: Record<Level, number>, schemas: { added: string[], removed: string[] } }} ContractDiff
 * @typedef {"request" | "response"} Direction
 */

const UPPER_BOUNDS = ["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties"];
const LOWER_BOUNDS = ["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"];
const MAX_DEPTH = 100;

/** `deref` from @workapi/spec, with an empty schema for a node that is absent or not an object. */
function resolved(doc, node) {
  const { node: target, ref } = deref(doc, node);
  return { node: target !== null && typeof target === "object" ? target : {}, ref };
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
const isSchema = (value) => value !== null && typeof value === "object";

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
  const { node, ref } = resolved(doc, schema);
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
    const { node } = resolved(doc, raw);
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
  /** @type {Finding[]} */
  const findings = [];
  const sameMemo = new Map();

  /** True when the component a ref names, and everything it reaches, is identical in both contracts. */
  function sameRef(ref) {
    if (sameMemo.has(ref)) return sameMemo.get(ref);
    const seen = new Set([ref]);
    const queue = [ref];
    let same = true;
    while (same && queue.length > 0) {
      const current = queue.pop();
      const b = jsonPointer(base, current);
      const h = jsonPointer(head, current);
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

  const operationRef = (path, method, op) => ({
    operationId: op.operationId ?? `${method} ${path}`,
    method,
    path,
  });
  const finding = (rule, operation, where, message) => ({
    rule,
    level: levelOf(rule),
    operation,
    where,
    message,
  });

  for (const [path, pathItem] of Object.entries(head.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const headOp = pathItem?.[method];
      if (!headOp) continue;
      const baseOp = base.paths?.[path]?.[method];
      const operation = operationRef(path, method, headOp);
      const emit = (rule, where, message) => findings.push(finding(rule, operation, where, message));
      if (!baseOp) emit("operation-added", "", "operation added");
      else diffOperation(baseOp, base.paths[path], headOp, pathItem, emit);
    }
  }
  for (const [path, pathItem] of Object.entries(base.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const baseOp = pathItem?.[method];
      if (!baseOp || head.paths?.[path]?.[method]) continue;
      const operation = operationRef(path, method, baseOp);
      const remaining = HTTP_METHODS.filter((m) => head.paths?.[path]?.[m]).map((m) => m.toUpperCase());
      findings.push(
        remaining.length > 0
          ? finding(
              "method-removed",
              operation,
              "",
              `method ${method.toUpperCase()} removed from ${path} (still answers ${remaining.join(", ")})`,
            )
          : finding("operation-removed", operation, "", "operation removed"),
      );
    }
  }
  findings.sort(
    (a, b) =>
      a.operation.path.localeCompare(b.operation.path) ||
      HTTP_METHODS.indexOf(a.operation.method) - HTTP_METHODS.indexOf(b.operation.method),
  );

  function diffOperation(baseOp, basePathItem, headOp, headPathItem, emit) {
    // Security: every alternative (a requirement object) is a way in; losing one locks callers out.
    const baseAlternatives = securityAlternatives(baseOp, base);
    const headAlternatives = securityAlternatives(headOp, head);
    for (const alternative of baseAlternatives.filter((a) => !headAlternatives.includes(a))) {
      emit("security-alternative-removed", "security", `scope alternative removed: ${alternative}`);
    }
    for (const alternative of headAlternatives.filter((a) => !baseAlternatives.includes(a))) {
      emit("security-alternative-added", "security", `scope alternative added: ${alternative}`);
    }

    const basePaging = baseOp["x-pagination"];
    const headPaging = headOp["x-pagination"];
    if (basePaging && !headPaging) {
      emit("pagination-removed", "x-pagination", "no longer paginates: clients iterate differently");
    } else if (!basePaging && headPaging) {
      emit("pagination-added", "x-pagination", "now paginates: clients iterate differently");
    } else if (basePaging && JSON.stringify(basePaging) !== JSON.stringify(headPaging)) {
      emit(
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
        if (parameter.required) emit("request-parameter-added-required", key, "new required parameter");
        else emit("request-parameter-added-optional", key, "optional parameter added");
        continue;
      }
      if (!old.required && parameter.required) {
        emit("request-parameter-became-required", key, "parameter became required");
      } else if (old.required && !parameter.required) {
        emit("request-parameter-became-optional", key, "parameter became optional");
      }
      diffSchema(old.schema ?? {}, parameter.schema ?? {}, key, "request", emit, []);
    }
    for (const key of before.keys()) {
      if (!after.has(key)) {
        emit("request-parameter-removed", key, "parameter removed: callers sending it lose its effect");
      }
    }
  }

  function diffRequestBody(baseBody, headBody, emit) {
    const b = baseBody ? resolved(base, baseBody).node : undefined;
    const h = headBody ? resolved(head, headBody).node : undefined;
    if (!b && !h) return;
    if (!b && h) {
      if (h.required) emit("request-body-added-required", "body", "new required request body");
      else emit("request-body-added-optional", "body", "optional request body added");
      return;
    }
    if (b && !h) {
      emit("request-body-removed", "body", "request body removed: callers sending one may get 400");
      return;
    }
    if (!b.required && h.required)
      emit("request-body-became-required", "body", "request body became required");
    if (b.required && !h.required)
      emit("request-body-became-optional", "body", "request body became optional");
    diffContent(b.content ?? {}, h.content ?? {}, "body", "request", emit);
  }

  function diffContent(baseContent, headContent, prefix, direction, emit) {
    for (const [media, item] of Object.entries(headContent)) {
      const where = mediaWhere(prefix, media);
      if (!baseContent[media]) {
        emit(`${direction}-media-type-added`, where, `media type ${media} added`);
        continue;
      }
      diffSchema(baseContent[media].schema ?? {}, item.schema ?? {}, where, direction, emit, []);
    }
    for (const media of Object.keys(baseContent)) {
      if (!headContent[media]) {
        emit(`${direction}-media-type-removed`, mediaWhere(prefix, media), `media type ${media} removed`);
      }
    }
  }

  function diffResponses(baseResponses, headResponses, emit) {
    const statuses = [...new Set([...Object.keys(baseResponses), ...Object.keys(headResponses)])].sort();
    for (const status of statuses) {
      const b = baseResponses[status] ? resolved(base, baseResponses[status]).node : undefined;
      const h = headResponses[status] ? resolved(head, headResponses[status]).node : undefined;
      const success = /^2/.test(status);
      const where = `responses.${status}`;
      if (!success) {
        if (b && !h) {
          emit(
            "error-response-removed",
            where,
            `status ${status} no longer documented: clients lose its typed error`,
          );
        }
        if (!b && h) emit("error-response-added", where, `status ${status} now documented`);
        continue;
      }
      if (b && !h) emit("response-success-status-removed", where, `success status ${status} removed`);
      else if (!b && h) emit("response-success-status-added", where, `success status ${status} added`);
      else if (b && h) {
        const prefix = status === "200" ? "response" : `response(${status})`;
        diffContent(b.content ?? {}, h.content ?? {}, prefix, "response", emit);
      }
    }
  }

  /**
   * Compares two schemas at `where`. `stack` holds one entry per level walked on the way here: the pair of
   * refs entered (`Thing|Thing`), so a recursive schema is walked once per path and the walk ends.
   * Every rule emitted here is named `<direction>-<change>`: request-type-changed, response-type-changed ...
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
    const say = (change, at, message) => emit(`${direction}-${change}`, at, message);

    // A union on one side only: the shapes cannot be compared field by field.
    if (Boolean(b.oneOf ?? b.anyOf) !== Boolean(h.oneOf ?? h.anyOf)) {
      say(
        "type-changed",
        where,
        (b.oneOf ?? b.anyOf) ? "no longer a union (oneOf/anyOf)" : "became a union (oneOf/anyOf)",
      );
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
        if (request && widened) say("type-widened", where, text);
        else if (!request && narrowed) say("type-narrowed", where, text);
        else say("type-changed", where, text);
        // Nothing in common (string -> object): the shapes below cannot be compared field by field.
        if (![...bt].some((t) => covers(ht, t)) && ![...ht].some((t) => covers(bt, t))) return;
      }
    } else if (bt || ht) {
      // A missing type accepts anything: gaining one narrows, losing one widens.
      const text = `type changed from ${typeText(bt)} to ${typeText(ht)}`;
      const widened = !ht;
      if (request && widened) say("type-widened", where, text);
      else if (!request && !widened) say("type-narrowed", where, text);
      else say("type-changed", where, text);
    }

    diffEnum(b, h, where, request, say);
    diffBounds(b, h, where, say);
    diffFormat(b, h, where, say);
    diffVariants(b, h, where, direction, emit, stack);

    // Object properties.
    const baseRequired = new Set(b.required);
    const headRequired = new Set(h.required);
    const closed = h.additionalProperties === false || h.unevaluatedProperties === false;
    for (const [name, property] of Object.entries(h.properties)) {
      const at = `${where}.${name}`;
      if (!(name in b.properties)) {
        if (!request) say("property-added", at, "property added");
        else if (headRequired.has(name)) say("property-added-required", at, "new required property");
        else say("property-added-optional", at, "optional property added");
        continue;
      }
      const was = baseRequired.has(name);
      const is = headRequired.has(name);
      if (request && !was && is) say("property-became-required", at, "property became required");
      if (request && was && !is) say("property-became-optional", at, "property became optional");
      if (!request && was && !is)
        say("property-became-optional", at, "no longer always present: readers cannot rely on it");
      if (!request && !was && is) say("property-became-required", at, "property now always present");
      diffSchema(b.properties[name], property, at, direction, emit, stack);
    }
    for (const name of Object.keys(b.properties)) {
      if (name in h.properties) continue;
      const at = `${where}.${name}`;
      if (!request) say("property-removed", at, "property removed: readers lose it");
      else if (closed)
        say("property-removed", at, "property removed from a closed body: callers sending it now get 400");
      else say("property-removed-ignored", at, "property removed: the server ignores it now");
    }
    if (request && bt?.has("object") && ht?.has("object")) {
      const wasClosed = b.additionalProperties === false || b.unevaluatedProperties === false;
      if (!wasClosed && closed)
        say("body-closed", where, "unknown properties now rejected (additionalProperties: false)");
      if (wasClosed && !closed) say("body-opened", where, "unknown properties now accepted");
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
      } else if (i < basePositions.length) say("position-removed", at, "tuple position no longer described");
      else say("position-added", at, "tuple position now described");
    }
  }

  function diffVariants(b, h, where, direction, emit, stack) {
    const baseVariants = b.oneOf ?? b.anyOf;
    const headVariants = h.oneOf ?? h.anyOf;
    if (!baseVariants || !headVariants) return;
    const request = direction === "request";
    const say = (change, at, message) => emit(`${direction}-${change}`, at, message);
    const keyed = (variants) => new Map(variants.map((v, i) => [refName(v.$ref) ?? `#${i + 1}`, v]));
    const before = keyed(baseVariants);
    const after = keyed(headVariants);
    for (const [key, variant] of after) {
      if (before.has(key)) diffSchema(before.get(key), variant, `${where}(${key})`, direction, emit, stack);
      else if (request) say("variant-added", where, `variant ${key} added`);
      else say("variant-added", where, `variant ${key} added: exhaustive readers need a default`);
    }
    for (const key of before.keys()) {
      if (after.has(key)) continue;
      if (request) say("variant-removed", where, `variant ${key} removed: callers sending it get 400`);
      else say("variant-removed", where, `variant ${key} removed`);
    }
  }

  /** @type {Record<Level, number>} */
  const counts = Object.fromEntries(LEVELS.map((level) => [level, 0]));
  for (const f of findings) counts[f.level]++;
  return {
    findings,
    counts,
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

function diffEnum(b, h, where, request, say) {
  const be = enumOf(b);
  const he = enumOf(h);
  if (!be && !he) return;
  const key = (value) => JSON.stringify(value);
  if (be && he) {
    const removed = be.filter((v) => !he.some((w) => key(w) === key(v)));
    const added = he.filter((v) => !be.some((w) => key(w) === key(v)));
    if (removed.length > 0) say("enum-value-removed", where, `enum value removed: ${list(removed)}`);
    if (added.length > 0) {
      const note = request ? "" : " (exhaustive readers need a default)";
      say("enum-value-added", where, `enum value added: ${list(added)}${note}`);
    }
  } else if (be) {
    say(
      "enum-removed",
      where,
      `no longer limited to ${list(be)}${request ? "" : " (exhaustive readers need a default)"}`,
    );
  } else if (he) {
    say("enum-added", where, `now limited to ${list(he)}`);
  }
}

/** Bounds: in a request a tighter bound rejects values callers send; in a response any bound is a note (rules.js). */
function diffBounds(b, h, where, say) {
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
    say(tighter ? "bound-tightened" : "bound-loosened", where, text);
  }
}

/** Format is part of the type; a pattern only restricts what callers may send (the levels are in rules.js). */
function diffFormat(b, h, where, say) {
  if (b.format !== h.format) {
    if (b.format && h.format) say("format-changed", where, `format changed from ${b.format} to ${h.format}`);
    else if (h.format) say("format-added", where, `format ${h.format} added`);
    else say("format-removed", where, `format ${b.format} removed`);
  }
  if (b.pattern !== h.pattern) {
    if (h.pattern === undefined) say("pattern-removed", where, `pattern ${b.pattern} removed`);
    else if (b.pattern === undefined) say("pattern-added", where, `pattern now ${h.pattern}`);
    else say("pattern-changed", where, `pattern now ${h.pattern}`);
  }
}
