// Compares two schemas and reports each difference as a change event: what changed (`kind`, `change`), the
// values before and after, the direction the data flows (`request`: callers send it, `response`: callers
// read it), and where it sits (`pointer` in the head document, `path` below the schema compared). Rules
// (src/rules) decide what each event means; this file only observes.
//
// A shared schema is compared once per pair of locations, direction and flags; the events are kept and
// handed to every operation that reaches it, so the work and the findings are per schema, not per operation.
import { comparePatterns } from "./patterns.js";
import {
  annotationOnly,
  atPointer,
  child,
  enumOf,
  isObject,
  key,
  resolve,
  typeCovered,
  typesOf,
  view,
} from "./schema-view.js";

const MAX_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];
const MIN_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
const FORMAT_WIDER = { int32: ["int64"], float: ["double"] };
const MAX_DEPTH = 64;

/**
 * @typedef {"request" | "response"} Direction
 * @typedef {{ readOnly?: boolean, writeOnly?: boolean, parameter?: boolean, header?: boolean }} Flags
 * @typedef {{ kind: string, change?: string, direction: Direction, path: string, pointer: string,
 *   side: "base" | "head", before?: any, after?: any, flags: Flags, [k: string]: any }} SchemaEvent
 */

/** @param {Record<string, any>} base @param {Record<string, any>} head */
export function schemaDiffer(base, head) {
  const memo = new Map();

  /**
   * @param {any} b base schema @param {string} bp its pointer @param {any} h head schema @param {string} hp
   * @param {Direction} direction @param {Flags} flags
   * @returns {SchemaEvent[]}
   */
  function compare(b, bp, h, hp, direction, flags = {}, stack = []) {
    const rb = resolve(base, b, bp);
    const rh = resolve(head, h, hp);
    const id = `${rb.pointer}|${rh.pointer}|${direction}|${flags.readOnly ? 1 : 0}${flags.writeOnly ? 1 : 0}${flags.parameter ? 1 : 0}${flags.header ? 1 : 0}`;
    if (memo.has(id)) return memo.get(id);
    if (stack.includes(id) || stack.length > MAX_DEPTH) return [];
    if (sameShape(rb, rh)) {
      memo.set(id, []);
      return [];
    }
    const events = [];
    walk(rb.node, rb.pointer, rh.node, rh.pointer, direction, flags, [...stack, id], events);
    memo.set(id, events);
    return events;
  }

  // JSON text of a node, computed once per node object (documents are not changed while they are compared).
  const texts = new WeakMap();
  const text = (node) => {
    if (!isObject(node) && !Array.isArray(node)) return key(node);
    let value = texts.get(node);
    if (value === undefined) {
      value = key(node);
      texts.set(node, value);
    }
    return value;
  };
  const sameRefs = new Map();

  /** Identical text at pointers that are both unchanged all the way down: nothing to compare. */
  function sameShape(rb, rh) {
    return text(rb.node) === text(rh.node) && reachedSame(rb.node);
  }

  /** True when every $ref below `node` names the same text in both documents, transitively. */
  function reachedSame(node) {
    if (Array.isArray(node)) return node.every(reachedSame);
    if (!isObject(node)) return true;
    if (typeof node.$ref === "string") return sameRef(node.$ref);
    return Object.values(node).every(reachedSame);
  }

  function sameRef(ref) {
    if (sameRefs.has(ref)) return sameRefs.get(ref);
    sameRefs.set(ref, true); // a cycle back to this ref adds nothing new
    const b = resolve(base, { $ref: ref }, "#").node;
    const h = resolve(head, { $ref: ref }, "#").node;
    const same = text(b) === text(h) && reachedSame(b);
    sameRefs.set(ref, same);
    return same;
  }

  function walk(bNode, bp, hNode, hp, direction, flags, stack, events) {
    const emit = (kind, fields = {}) =>
      events.push({ kind, direction, path: "", pointer: hp, side: "head", flags, ...fields });
    const nested = (b, bPtr, h, hPtr, segment, childFlags = flags) => {
      for (const event of compare(b, bPtr, h, hPtr, direction, childFlags, stack)) {
        events.push({ ...event, path: `${segment}${event.path}` });
      }
    };
    const bv = view(base, bNode, bp);
    const hv = view(head, hNode, hp);
    const b = bv.own;
    const h = hv.own;

    compareUnions(bp, hp, b, h, emit, nested, { direction, flags, stack });
    compareAllOf(bNode, hNode, emit);
    compareTypes(b, h, emit);
    compareValues(b, h, emit, flags);
    compareBounds(b, h, emit);
    compareStrings(b, h, emit);
    compareAnnotations(b, h, emit);
    compareProperties(bv, hv, direction, flags, emit, nested);
    compareSubschemas(b, bv.pointer, h, hv.pointer, emit, nested);
  }

  function compareUnions(bp, hp, b, h, emit, nested, { direction, flags, stack }) {
    for (const keyword of ["oneOf", "anyOf"]) {
      const bl = Array.isArray(b[keyword]) ? b[keyword] : undefined;
      const hl = Array.isArray(h[keyword]) ? h[keyword] : undefined;
      if (!bl && !hl) continue;
      if (!bl) {
        // A variant that takes exactly what the schema took before keeps every old value valid.
        const keepsOld =
          direction === "request" &&
          h[keyword].some(
            (variant, index) =>
              compare(b, bp, variant, child(hp, keyword, index), direction, flags, stack).length === 0,
          );
        emit("union", { change: "wrapped", keyword, keepsOld });
        continue;
      }
      if (!hl) {
        emit("union", { change: "unwrapped", keyword });
        continue;
      }
      const label = (variant, index) => {
        if (isObject(variant) && typeof variant.$ref === "string") return variant.$ref.split("/").pop();
        if (isObject(variant) && typeof variant.title === "string") return variant.title;
        return `#${index + 1}`;
      };
      const before = new Map(bl.map((v, i) => [label(v, i), i]));
      const after = new Map(hl.map((v, i) => [label(v, i), i]));
      for (const [name, index] of after) {
        if (!before.has(name)) emit("variant", { change: "added", keyword, name });
        else {
          const i = before.get(name);
          nested(bl[i], child(bp, keyword, i), hl[index], child(hp, keyword, index), `(${name})`);
        }
      }
      for (const name of before.keys())
        if (!after.has(name)) emit("variant", { change: "removed", keyword, name });
    }
  }

  /**
   * allOf members: a `$ref` member is matched by what it names; inline members are matched in order (their
   * contents are compared through the merged view), so only a change in their number is a member added or
   * removed.
   */
  function compareAllOf(bNode, hNode, emit) {
    const members = (doc, node) => {
      const own = resolve(doc, node, "#").node;
      return Array.isArray(own.allOf) ? own.allOf : [];
    };
    const refOf = (member) => (isObject(member) && typeof member.$ref === "string" ? member.$ref : undefined);
    const bl = members(base, bNode);
    const hl = members(head, hNode);
    const bRefs = new Set(bl.map(refOf).filter(Boolean));
    const hRefs = new Set(hl.map(refOf).filter(Boolean));
    const only = (doc, member) => annotationOnly(resolve(doc, member, "#").node);
    for (const member of hl)
      if (refOf(member) && !bRefs.has(refOf(member)))
        emit("all-of", { change: "added", annotationOnly: only(head, member) });
    for (const member of bl)
      if (refOf(member) && !hRefs.has(refOf(member)))
        emit("all-of", { change: "removed", annotationOnly: only(base, member) });
    const bInline = bl.filter((m) => !refOf(m));
    const hInline = hl.filter((m) => !refOf(m));
    for (const member of hInline.slice(bInline.length))
      emit("all-of", { change: "added", annotationOnly: only(head, member) });
    for (const member of bInline.slice(hInline.length))
      emit("all-of", { change: "removed", annotationOnly: only(base, member) });
  }

  function compareTypes(b, h, emit) {
    const bt = typesOf(b);
    const ht = typesOf(h);
    const union = (schema) => Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf);
    // A union on one side says its types through its variants: the union rules report that change.
    if ((!bt || !ht) && (union(b) || union(h))) return compareFormat(b, h, emit);
    if (bt || ht) compareTypeSets(bt, ht, emit);
    compareFormat(b, h, emit);
  }

  function compareTypeSets(bt, ht, emit) {
    const same = bt && ht && bt.size === ht.size && [...bt].every((t) => ht.has(t));
    if (!same) {
      const withoutNull = (types) => (types ? new Set([...types].filter((t) => t !== "null")) : undefined);
      const bn = withoutNull(bt);
      const hn = withoutNull(ht);
      const nullOnly = bn && hn && bn.size === hn.size && [...bn].every((t) => hn.has(t));
      if (nullOnly) emit("nullable", { change: ht.has("null") ? "set" : "unset" });
      else {
        const text = (types) => (types ? [...types].join(" | ") : "any");
        let change = "changed";
        if (!ht) change = "widened";
        else if (!bt) change = "narrowed";
        else if ([...bt].every((t) => typeCovered(ht, t))) change = "widened";
        else if ([...ht].every((t) => typeCovered(bt, t))) change = "narrowed";
        emit("type", { change, before: text(bt), after: text(ht) });
      }
    }
  }

  function compareFormat(b, h, emit) {
    if (b.format !== h.format) {
      let change = "changed";
      if (b.format === undefined) change = "set";
      else if (h.format === undefined) change = "unset";
      else if (FORMAT_WIDER[b.format]?.includes(h.format)) change = "widened";
      else if (FORMAT_WIDER[h.format]?.includes(b.format)) change = "narrowed";
      emit("format", { change, before: b.format, after: h.format });
    }
  }

  function compareValues(b, h, emit) {
    const be = enumOf(b);
    const he = enumOf(h);
    if (be && he) {
      const added = he.filter((v) => !be.some((w) => key(w) === key(v)));
      const removed = be.filter((v) => !he.some((w) => key(w) === key(v)));
      if (added.length) emit("enum", { change: "values-added", values: added });
      if (removed.length) emit("enum", { change: "values-removed", values: removed });
    } else if (he) emit("enum", { change: "set", values: he });
    else if (be) emit("enum", { change: "unset", values: be });
    const bx = Array.isArray(b["x-extensible-enum"]) ? b["x-extensible-enum"] : undefined;
    const hx = Array.isArray(h["x-extensible-enum"]) ? h["x-extensible-enum"] : undefined;
    if (bx || hx) {
      const removed = (bx ?? []).filter((v) => !(hx ?? []).some((w) => key(w) === key(v)));
      const added = (hx ?? []).filter((v) => !(bx ?? []).some((w) => key(w) === key(v)));
      if (removed.length) emit("extensible-enum", { change: "values-removed", values: removed });
      if (added.length) emit("extensible-enum", { change: "values-added", values: added });
    }
    if (key(b.const) !== key(h.const)) {
      const change = b.const === undefined ? "set" : h.const === undefined ? "unset" : "changed";
      emit("const", { change, before: b.const, after: h.const });
    }
    if (key(b.default) !== key(h.default)) {
      const change = b.default === undefined ? "set" : h.default === undefined ? "unset" : "changed";
      emit("default", { change, before: b.default, after: h.default });
    }
  }

  function compareBounds(b, h, emit) {
    for (const keyword of [...MAX_BOUNDS, ...MIN_BOUNDS]) {
      const was = typeof b[keyword] === "number" ? b[keyword] : undefined;
      const is = typeof h[keyword] === "number" ? h[keyword] : undefined;
      if (was === is) continue;
      const change =
        was === undefined ? "set" : is === undefined ? "unset" : is > was ? "increased" : "decreased";
      emit("bound", {
        change,
        keyword,
        bound: MAX_BOUNDS.includes(keyword) ? "max" : "min",
        before: was,
        after: is,
      });
    }
    // OpenAPI 3.0 spells exclusive bounds as booleans beside maximum/minimum.
    for (const keyword of ["exclusiveMaximum", "exclusiveMinimum"]) {
      const was = b[keyword] === true;
      const is = h[keyword] === true;
      if (was !== is && typeof b[keyword] !== "number" && typeof h[keyword] !== "number") {
        emit("bound", {
          change: is ? "set" : "unset",
          keyword,
          bound: keyword === "exclusiveMaximum" ? "max" : "min",
          before: was,
          after: is,
        });
      }
    }
    if (b.multipleOf !== h.multipleOf) {
      let change = b.multipleOf === undefined ? "set" : h.multipleOf === undefined ? "unset" : "changed";
      if (change === "changed") {
        if (Number.isInteger(b.multipleOf / h.multipleOf)) change = "widened";
        else if (Number.isInteger(h.multipleOf / b.multipleOf)) change = "narrowed";
      }
      emit("multiple-of", { change, before: b.multipleOf, after: h.multipleOf });
    }
    if ((b.uniqueItems === true) !== (h.uniqueItems === true)) {
      emit("unique-items", { change: h.uniqueItems === true ? "set" : "unset" });
    }
  }

  function compareStrings(b, h, emit) {
    if (b.pattern !== h.pattern) {
      let change = b.pattern === undefined ? "set" : h.pattern === undefined ? "unset" : "changed";
      if (change === "changed") {
        const verdict = comparePatterns(b.pattern, h.pattern);
        if (verdict === "generalized") change = "generalized";
        else if (comparePatterns(h.pattern, b.pattern) === "generalized") change = "specialized";
      }
      emit("pattern", { change, before: b.pattern, after: h.pattern });
    }
    for (const keyword of ["contentMediaType", "contentEncoding"]) {
      if (b[keyword] === h[keyword]) continue;
      const change = b[keyword] === undefined ? "added" : h[keyword] === undefined ? "removed" : "changed";
      emit("content-encoding", { change, keyword, before: b[keyword], after: h[keyword] });
    }
  }

  function compareAnnotations(b, h, emit) {
    if (Boolean(b.deprecated) !== Boolean(h.deprecated)) {
      emit("deprecated", { change: h.deprecated ? "set" : "unset", sunset: h["x-sunset"] });
    }
    const bs = b["x-stability-level"];
    const hs = h["x-stability-level"];
    if (bs !== hs) emit("stability", { before: bs, after: hs });
    const bd = isObject(b.discriminator) ? b.discriminator : undefined;
    const hd = isObject(h.discriminator) ? h.discriminator : undefined;
    if (bd || hd) {
      if (!bd) emit("discriminator", { change: "set" });
      else if (!hd) emit("discriminator", { change: "unset" });
      else {
        if (bd.propertyName !== hd.propertyName) {
          emit("discriminator", {
            change: "property-name-changed",
            before: bd.propertyName,
            after: hd.propertyName,
          });
        }
        const bm = isObject(bd.mapping) ? bd.mapping : {};
        const hm = isObject(hd.mapping) ? hd.mapping : {};
        for (const name of Object.keys(hm)) {
          if (!(name in bm)) emit("discriminator", { change: "mapping-added", name });
          else if (bm[name] !== hm[name])
            emit("discriminator", { change: "mapping-changed", name, before: bm[name], after: hm[name] });
        }
        for (const name of Object.keys(bm))
          if (!(name in hm)) emit("discriminator", { change: "mapping-removed", name });
      }
    }
  }

  function compareProperties(bv, hv, direction, flags, emit, nested) {
    const propertyFlags = (schema, doc) => {
      const node = resolve(doc, schema, "#").node;
      return { readOnly: node.readOnly === true, writeOnly: node.writeOnly === true, node };
    };
    for (const [name, property] of hv.properties) {
      const at = `.${name}`;
      const hf = propertyFlags(property.schema, head);
      const required = hv.required.has(name);
      const old = bv.properties.get(name);
      if (!old) {
        emit("property", {
          change: "added",
          name,
          path: at,
          pointer: property.pointer,
          required,
          readOnly: hf.readOnly,
          writeOnly: hf.writeOnly,
          hasDefault: hf.node.default !== undefined,
        });
        continue;
      }
      const bf = propertyFlags(old.schema, base);
      const wasRequired = bv.required.has(name);
      const common = {
        name,
        path: at,
        pointer: property.pointer,
        readOnly: hf.readOnly || bf.readOnly,
        writeOnly: hf.writeOnly || bf.writeOnly,
      };
      if (wasRequired !== required) emit("required", { ...common, change: required ? "set" : "unset" });
      if (bf.readOnly !== hf.readOnly)
        emit("read-only", { ...common, change: hf.readOnly ? "set" : "unset", required });
      if (bf.writeOnly !== hf.writeOnly)
        emit("write-only", { ...common, change: hf.writeOnly ? "set" : "unset", required });
      const childFlags = {
        ...flags,
        readOnly: flags.readOnly || (bf.readOnly && hf.readOnly),
        writeOnly: flags.writeOnly || (bf.writeOnly && hf.writeOnly),
      };
      nested(old.schema, old.pointer, property.schema, property.pointer, at, childFlags);
    }
    for (const [name, property] of bv.properties) {
      if (hv.properties.has(name)) continue;
      const bf = propertyFlags(property.schema, base);
      // Point at the `properties` the name was removed from when the head still has that place.
      const parent = property.pointer.slice(0, property.pointer.lastIndexOf("/"));
      emit("property", {
        change: "removed",
        name,
        path: `.${name}`,
        pointer: atPointer(head, parent) !== undefined ? parent : hv.pointer,
        required: bv.required.has(name),
        readOnly: bf.readOnly,
        writeOnly: bf.writeOnly,
        deprecated: bf.node.deprecated === true,
        sunset: bf.node["x-sunset"],
        closed: hv.closed,
      });
    }
    // Names required with no property schema (allowed by JSON Schema) still bind callers.
    for (const name of hv.required) {
      if (!hv.properties.has(name) && !bv.required.has(name))
        emit("required", { name, path: `.${name}`, change: "set", readOnly: false, writeOnly: false });
    }
    // unevaluatedProperties has rules of its own (subschema events); this is additionalProperties: false.
    if (bv.noAdditional !== hv.noAdditional) emit("closed", { change: hv.noAdditional ? "set" : "unset" });
    void direction;
  }

  function compareSubschemas(b, bp, h, hp, emit, nested) {
    // `true` admits everything, like an absent keyword.
    const pair = (keyword, segment) => {
      const bs = b[keyword] === true ? undefined : b[keyword];
      const hs = h[keyword] === true ? undefined : h[keyword];
      const isSchema = (s) => isObject(s) || typeof s === "boolean";
      if (isSchema(bs) && isSchema(hs)) {
        if (typeof bs === "boolean" || typeof hs === "boolean") {
          // `false` on one side only (the other a schema): the false side admits nothing.
          if (bs !== hs && keyword !== "additionalProperties")
            emit("subschema", { change: hs === false ? "set" : "unset", keyword });
        } else nested(bs, child(bp, keyword), hs, child(hp, keyword), segment);
        return;
      }
      if (isSchema(bs) !== isSchema(hs)) return isSchema(hs) ? "set" : "unset";
      return undefined;
    };
    const itemsChange = pair("items", "[]");
    if (itemsChange) emit("subschema", { change: itemsChange, keyword: "items" });
    const additional = pair("additionalProperties", "{*}");
    if (additional) emit("subschema", { change: additional, keyword: "additionalProperties" });
    for (const keyword of [
      "contains",
      "propertyNames",
      "unevaluatedProperties",
      "unevaluatedItems",
      "contentSchema",
      "if",
      "then",
      "else",
    ]) {
      const change = pair(keyword, `<${keyword}>`);
      if (change) emit("subschema", { change, keyword });
    }
    const notChange = pair("not", "<not>");
    if (notChange) emit("subschema", { change: notChange, keyword: "not" });
    const bPositions = Array.isArray(b.prefixItems) ? b.prefixItems : [];
    const hPositions = Array.isArray(h.prefixItems) ? h.prefixItems : [];
    for (let i = 0; i < Math.max(bPositions.length, hPositions.length); i++) {
      if (i < bPositions.length && i < hPositions.length) {
        nested(
          bPositions[i],
          child(bp, "prefixItems", i),
          hPositions[i],
          child(hp, "prefixItems", i),
          `[${i}]`,
        );
      } else emit("prefix-items", { change: i < hPositions.length ? "added" : "removed", index: i });
    }
    for (const keyword of ["dependentSchemas", "patternProperties"]) {
      const bm = isObject(b[keyword]) ? b[keyword] : {};
      const hm = isObject(h[keyword]) ? h[keyword] : {};
      for (const name of Object.keys(hm)) {
        if (name in bm)
          nested(
            bm[name],
            child(bp, keyword, name),
            hm[name],
            child(hp, keyword, name),
            `<${keyword}:${name}>`,
          );
        else emit("keyed-subschema", { change: "added", keyword, name });
      }
      for (const name of Object.keys(bm))
        if (!(name in hm)) emit("keyed-subschema", { change: "removed", keyword, name });
    }
    const bd = isObject(b.dependentRequired) ? b.dependentRequired : {};
    const hd = isObject(h.dependentRequired) ? h.dependentRequired : {};
    for (const name of new Set([...Object.keys(bd), ...Object.keys(hd)])) {
      const was = new Set(Array.isArray(bd[name]) ? bd[name] : []);
      const is = new Set(Array.isArray(hd[name]) ? hd[name] : []);
      if (!(name in bd)) emit("dependent-required", { change: "added", name, after: [...is] });
      else if (!(name in hd)) emit("dependent-required", { change: "removed", name, before: [...was] });
      else {
        const grew = [...is].some((n) => !was.has(n));
        const shrank = [...was].some((n) => !is.has(n));
        if (grew || shrank)
          emit("dependent-required", {
            change: grew ? "grew" : "shrank",
            name,
            before: [...was],
            after: [...is],
          });
      }
    }
  }

  /** True when two nodes read the same and every $ref below them names the same text in both documents. */
  const same = (b, h) => text(b) === text(h) && reachedSame(b);

  return { compare, same };
}
