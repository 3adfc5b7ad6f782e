// Pairs the operations of two contracts and reports what changed around them as events: operations,
// deprecation and stability, security, parameters, request bodies, responses and their headers, webhooks
// and callbacks. Schemas are handed to walk-schema.js with the direction their data flows. An operation is
// matched by method and path template, so renaming a path parameter (`{id}` -> `{workId}`) keeps it the same
// operation.
import { child, isObject, key, resolve } from "./schema-view.js";
import { schemaDiffer } from "./walk-schema.js";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** `/works/{id}/parts/{part}` -> `/works/{}/parts/{}`: the shape two path templates share. */
export const templateOf = (path) => path.replace(/\{[^}]*\}/g, "{}");

const flip = (direction) => (direction === "request" ? "response" : "request");

/**
 * Every operation of a document: paths, and webhooks (OpenAPI 3.1), each with the pointer it lives at.
 * @returns {Map<string, { method: string, path: string, op: any, pointer: string, item: any, itemPointer: string, webhook: boolean }>}
 */
function operationsOf(doc) {
  const out = new Map();
  const add = (container, containerPointer, webhook) => {
    for (const [path, rawItem] of Object.entries(isObject(container) ? container : {})) {
      const resolved = resolve(doc, rawItem, child(containerPointer, path));
      for (const method of HTTP_METHODS) {
        const op = resolved.node[method];
        if (!isObject(op)) continue;
        const id = `${webhook ? "webhook " : ""}${method} ${webhook ? path : templateOf(path)}`;
        out.set(id, {
          method,
          path,
          op,
          pointer: child(resolved.pointer, method),
          item: resolved.node,
          itemPointer: resolved.pointer,
          webhook,
        });
      }
    }
  };
  add(doc.paths, "#/paths", false);
  add(doc.webhooks, "#/webhooks", true);
  return out;
}

/**
 * @param {Record<string, any>} base
 * @param {Record<string, any>} head
 * @returns {any[]} events, each with `operation` ({ operationId, method, path, stability, webhook }) and `where`
 */
export function walkOperations(base, head) {
  const events = [];
  const schemas = schemaDiffer(base, head);
  const before = operationsOf(base);
  const after = operationsOf(head);

  for (const [id, h] of after) {
    const b = before.get(id);
    const operation = describe(h, b);
    const emit = (kind, fields) =>
      events.push({ kind, operation, where: "", pointer: h.pointer, side: "head", ...fields });
    if (!b) {
      emit(h.webhook ? "webhook" : "operation", { change: "added" });
      continue;
    }
    if (
      schemas.same(b.op, h.op) &&
      schemas.same(b.item.parameters, h.item.parameters) &&
      (b.op.security !== undefined || schemas.same(base.security, head.security))
    )
      continue;
    compareOperation(b, h, operation, emit, h.webhook ? "response" : "request");
  }
  for (const [id, b] of before) {
    if (after.has(id)) continue;
    const operation = describe(b);
    const others = HTTP_METHODS.filter((m) => after.has(`${m} ${templateOf(b.path)}`));
    events.push({
      kind: b.webhook ? "webhook" : "operation",
      change: "removed",
      operation,
      where: "",
      pointer: b.pointer,
      side: "base",
      deprecated: b.op.deprecated === true,
      sunset: b.op["x-sunset"],
      stability: b.op["x-stability-level"],
      pathRemains: others.length > 0,
    });
  }
  compareComponents(base, head, events);
  return events;

  function describe(h, b) {
    return {
      operationId: h.op.operationId ?? `${h.method.toUpperCase()} ${h.path}`,
      method: h.method,
      path: h.path,
      webhook: h.webhook,
      stability: h.op["x-stability-level"] ?? b?.op["x-stability-level"],
    };
  }

  /** `outward`: the direction of what the caller sends (reversed for a webhook, which the server sends). */
  function compareOperation(b, h, operation, emit, outward) {
    const bo = b.op;
    const ho = h.op;
    if (Boolean(bo.deprecated) !== Boolean(ho.deprecated)) {
      emit("operation-deprecated", {
        change: ho.deprecated ? "set" : "unset",
        sunset: ho["x-sunset"],
        stability: ho["x-stability-level"],
      });
    } else if (ho.deprecated && bo["x-sunset"] !== ho["x-sunset"]) {
      emit("operation-sunset", {
        change: ho["x-sunset"] === undefined ? "unset" : bo["x-sunset"] === undefined ? "set" : "changed",
        before: bo["x-sunset"],
        after: ho["x-sunset"],
      });
    }
    if (bo["x-stability-level"] !== ho["x-stability-level"]) {
      emit("operation-stability", { before: bo["x-stability-level"], after: ho["x-stability-level"] });
    }
    if (bo.operationId !== ho.operationId)
      emit("operation-id", { before: bo.operationId, after: ho.operationId });
    const bt = new Set(bo.tags ?? []);
    const ht = new Set(ho.tags ?? []);
    for (const tag of ht) if (!bt.has(tag)) emit("operation-tag", { change: "added", name: tag });
    for (const tag of bt) if (!ht.has(tag)) emit("operation-tag", { change: "removed", name: tag });
    if (!operation.webhook) {
      const where = ho.security !== undefined ? child(h.pointer, "security") : "#/security";
      compareSecurity(bo.security ?? base.security, ho.security ?? head.security, emit, where);
    }
    if (key(bo["x-pagination"]) !== key(ho["x-pagination"])) {
      const change =
        bo["x-pagination"] === undefined ? "set" : ho["x-pagination"] === undefined ? "unset" : "changed";
      emit("pagination", {
        change,
        before: bo["x-pagination"],
        after: ho["x-pagination"],
        where: "x-pagination",
      });
    }
    compareParameters(b, h, emit, outward);
    compareRequestBody(
      bo.requestBody,
      child(b.pointer, "requestBody"),
      ho.requestBody,
      child(h.pointer, "requestBody"),
      emit,
      outward,
    );
    compareResponses(
      bo.responses,
      child(b.pointer, "responses"),
      ho.responses,
      child(h.pointer, "responses"),
      emit,
      flip(outward),
    );
    compareCallbacks(bo.callbacks, b.pointer, ho.callbacks, h.pointer, operation, emit, outward);
  }

  function parametersOf(doc, entry) {
    const out = new Map();
    const list = [
      ...(Array.isArray(entry.item.parameters)
        ? entry.item.parameters.map((p, i) => [p, child(entry.itemPointer, "parameters", i)])
        : []),
      ...(Array.isArray(entry.op.parameters)
        ? entry.op.parameters.map((p, i) => [p, child(entry.pointer, "parameters", i)])
        : []),
    ];
    const template = [...entry.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
    for (const [raw, pointer] of list) {
      const { node, pointer: at } = resolve(doc, raw, pointer);
      if (typeof node.name !== "string" || typeof node.in !== "string") continue;
      let id = `${node.in}.${node.in === "header" ? node.name.toLowerCase() : node.name}`;
      if (node.in === "path" && !entry.webhook && template.includes(node.name))
        id = `path.#${template.indexOf(node.name)}`;
      out.set(id, { node, pointer: at });
    }
    return out;
  }

  function compareParameters(b, h, emit, outward) {
    const bp = parametersOf(base, b);
    const hp = parametersOf(head, h);
    for (const [id, { node, pointer }] of hp) {
      const where = `${node.in}.${node.name}`;
      const old = bp.get(id);
      const schemaOf = (p) => p.schema ?? Object.values(p.content ?? {})[0]?.schema ?? {};
      if (!old) {
        emit("parameter", {
          change: "added",
          in: node.in,
          name: node.name,
          required: node.required === true || node.in === "path",
          hasDefault: resolve(head, schemaOf(node), "#").node.default !== undefined,
          where,
          pointer,
        });
        continue;
      }
      const was = old.node.required === true;
      const is = node.required === true;
      if (was !== is)
        emit("parameter-required", { change: is ? "set" : "unset", where, pointer, in: node.in });
      if (Boolean(old.node.deprecated) !== Boolean(node.deprecated)) {
        emit("parameter-deprecated", {
          change: node.deprecated ? "set" : "unset",
          sunset: node["x-sunset"],
          where,
          pointer,
        });
      } else if (node.deprecated && old.node["x-sunset"] !== node["x-sunset"]) {
        const before = old.node["x-sunset"];
        const after = node["x-sunset"];
        const change = after === undefined ? "unset" : before === undefined ? "set" : "changed";
        emit("parameter-sunset", { change, before, after, where, pointer });
      }
      for (const field of ["style", "explode", "allowReserved"]) {
        if (old.node[field] !== node[field])
          emit("parameter-serialization", {
            field,
            before: old.node[field],
            after: node[field],
            where,
            pointer,
          });
      }
      const bs = schemaOf(old.node);
      const hs = schemaOf(node);
      const schemaPointer = (p, at) =>
        p.schema
          ? child(at, "schema")
          : child(at, "content", Object.keys(p.content ?? {})[0] ?? "", "schema");
      forward(
        schemas.compare(bs, schemaPointer(old.node, old.pointer), hs, schemaPointer(node, pointer), outward, {
          parameter: true,
        }),
        emit,
        where,
      );
    }
    for (const [id, { node }] of bp) {
      if (hp.has(id)) continue;
      emit("parameter", {
        change: "removed",
        in: node.in,
        name: node.name,
        deprecated: node.deprecated === true,
        sunset: node["x-sunset"],
        where: `${node.in}.${node.name}`,
        pointer: child(h.pointer, "parameters"),
      });
    }
  }

  function compareRequestBody(rawB, bp, rawH, hp, emit, direction) {
    if (rawB === undefined && rawH === undefined) return;
    if (rawB === undefined) {
      emit("request-body", {
        change: "added",
        required: resolve(head, rawH, hp).node.required === true,
        where: "body",
        pointer: hp,
      });
      return;
    }
    const b = resolve(base, rawB, bp);
    if (rawH === undefined) {
      emit("request-body", { change: "removed", where: "body", pointer: hp.replace(/\/requestBody$/, "") });
      return;
    }
    const h = resolve(head, rawH, hp);
    if ((b.node.required === true) !== (h.node.required === true)) {
      emit("request-body-required", {
        change: h.node.required === true ? "set" : "unset",
        where: "body",
        pointer: h.pointer,
      });
    }
    compareContent(
      b.node.content,
      child(b.pointer, "content"),
      h.node.content,
      child(h.pointer, "content"),
      emit,
      direction,
      "body",
    );
  }

  function compareContent(bc = {}, bp, hc = {}, hp, emit, direction, prefix) {
    const label = (media) => (media === "application/json" ? prefix : `${prefix}(${media})`);
    for (const [media, item] of Object.entries(isObject(hc) ? hc : {})) {
      const where = label(media);
      const pointer = child(hp, media);
      const old = isObject(bc) ? bc[media] : undefined;
      if (!old) {
        emit("media-type", { change: "added", direction, media, where, pointer });
        continue;
      }
      const hasB = isObject(old) && old.schema !== undefined;
      const hasH = isObject(item) && item.schema !== undefined;
      if (hasB !== hasH)
        emit("media-schema", { change: hasH ? "set" : "unset", direction, media, where, pointer });
      if (hasB && hasH)
        forward(
          schemas.compare(
            old.schema,
            child(bp, media, "schema"),
            item.schema,
            child(pointer, "schema"),
            direction,
          ),
          emit,
          where,
        );
    }
    for (const media of Object.keys(isObject(bc) ? bc : {})) {
      if (!isObject(hc) || !(media in hc))
        emit("media-type", { change: "removed", direction, media, where: label(media), pointer: hp });
    }
  }

  function compareResponses(br = {}, bp, hr = {}, hp, emit, direction) {
    const statuses = new Set([
      ...Object.keys(isObject(br) ? br : {}),
      ...Object.keys(isObject(hr) ? hr : {}),
    ]);
    // The one success status became another (200 -> 201): one change, and the two answers compared as one.
    const successes = (responses) =>
      Object.keys(isObject(responses) ? responses : {}).filter((s) => /^2/.test(s));
    const [bOnly, hOnly] = [successes(br), successes(hr)];
    const moved = bOnly.length === 1 && hOnly.length === 1 && bOnly[0] !== hOnly[0] ? bOnly[0] : undefined;
    for (const status of [...statuses].sort()) {
      const success = /^2/.test(status);
      const where = `response(${status})`;
      if (moved !== undefined && status === moved) continue;
      const baseStatus = moved !== undefined && status === hOnly[0] ? moved : status;
      if (baseStatus !== status) {
        emit("response", {
          change: "success-changed",
          status,
          before: moved,
          success,
          direction,
          where,
          pointer: child(hp, status),
        });
      } else if (!(status in (br ?? {}))) {
        emit("response", { change: "added", status, success, direction, where, pointer: child(hp, status) });
        continue;
      }
      if (!(status in (hr ?? {}))) {
        emit("response", { change: "removed", status, success, direction, where, pointer: hp });
        continue;
      }
      const b = resolve(base, br[baseStatus], child(bp, baseStatus));
      const h = resolve(head, hr[status], child(hp, status));
      compareHeaders(
        b.node.headers,
        child(b.pointer, "headers"),
        h.node.headers,
        child(h.pointer, "headers"),
        emit,
        direction,
        where,
      );
      compareContent(
        b.node.content,
        child(b.pointer, "content"),
        h.node.content,
        child(h.pointer, "content"),
        emit,
        direction,
        where,
      );
    }
  }

  function compareHeaders(bh = {}, bp, hh = {}, hp, emit, direction, prefix) {
    const lower = (headers) =>
      new Map(Object.entries(isObject(headers) ? headers : {}).map(([n, v]) => [n.toLowerCase(), [n, v]]));
    const before = lower(bh);
    const after = lower(hh);
    for (const [id, [name, raw]] of after) {
      const where = `${prefix}.header.${name}`;
      const h = resolve(head, raw, child(hp, name));
      if (!before.has(id)) {
        emit("response-header", {
          change: "added",
          direction,
          required: h.node.required === true,
          where,
          pointer: h.pointer,
        });
        continue;
      }
      const [oldName, oldRaw] = before.get(id);
      const b = resolve(base, oldRaw, child(bp, oldName));
      if ((b.node.required === true) !== (h.node.required === true)) {
        emit("response-header-required", {
          change: h.node.required === true ? "set" : "unset",
          direction,
          where,
          pointer: h.pointer,
        });
      }
      if (b.node.schema !== undefined && h.node.schema !== undefined) {
        forward(
          schemas.compare(
            b.node.schema,
            child(b.pointer, "schema"),
            h.node.schema,
            child(h.pointer, "schema"),
            direction,
            { header: true },
          ),
          emit,
          where,
        );
      }
    }
    for (const [id, [name, raw]] of before) {
      if (after.has(id)) continue;
      const b = resolve(base, raw, child(bp, name));
      emit("response-header", {
        change: "removed",
        direction,
        required: b.node.required === true,
        where: `${prefix}.header.${name}`,
        pointer: hp,
      });
    }
  }

  function compareCallbacks(bc, bp, hc, hp, operation, emit, outward) {
    const names = new Set([...Object.keys(isObject(bc) ? bc : {}), ...Object.keys(isObject(hc) ? hc : {})]);
    for (const name of names) {
      const b =
        isObject(bc) && bc[name] !== undefined
          ? resolve(base, bc[name], child(bp, "callbacks", name))
          : undefined;
      const h =
        isObject(hc) && hc[name] !== undefined
          ? resolve(head, hc[name], child(hp, "callbacks", name))
          : undefined;
      const bEntries = b ? Object.entries(b.node) : [];
      const hEntries = h ? Object.entries(h.node) : [];
      for (const [expression, rawItem] of hEntries) {
        const hi = resolve(head, rawItem, child(h.pointer, expression));
        const old = bEntries.find(([e]) => e === expression);
        const bi = old ? resolve(base, old[1], child(b.pointer, expression)) : undefined;
        for (const method of HTTP_METHODS) {
          const ho = hi.node[method];
          const bo = bi?.node[method];
          const where = `callback(${name}).${method.toUpperCase()} ${expression}`;
          if (isObject(ho) && !isObject(bo))
            emit("callback", { change: "added", name, where, pointer: child(hi.pointer, method) });
          else if (isObject(bo) && !isObject(ho))
            emit("callback", { change: "removed", name, where, pointer: hi.pointer });
          else if (isObject(ho) && isObject(bo)) {
            // The server calls the caller back: what it sends is read by the caller, what the caller answers is sent.
            const prefixed = (kind, fields) =>
              emit(kind, { ...fields, where: `${where} ${fields.where ?? ""}`.trim() });
            compareRequestBody(
              bo.requestBody,
              child(bi.pointer, method, "requestBody"),
              ho.requestBody,
              child(hi.pointer, method, "requestBody"),
              prefixed,
              flip(outward),
            );
            compareResponses(
              bo.responses,
              child(bi.pointer, method, "responses"),
              ho.responses,
              child(hi.pointer, method, "responses"),
              prefixed,
              outward,
            );
          }
        }
      }
      for (const [expression] of bEntries) {
        if (!hEntries.some(([e]) => e === expression))
          emit("callback", {
            change: "removed",
            name,
            where: `callback(${name}) ${expression}`,
            pointer: h?.pointer ?? hp,
          });
      }
    }
    void operation;
  }

  function forward(schemaEvents, emit, where) {
    for (const event of schemaEvents) emit(event.kind, { ...event, where: `${where}${event.path}` });
  }
}

/** A requirement object as scheme names (`bearer`, `key + oauth`; `{}`, anonymous access, as `anonymous`). */
function alternatives(list) {
  return (Array.isArray(list) ? list : []).filter(isObject).map((requirement) => {
    const schemes = Object.keys(requirement).sort();
    const scopes = new Map(
      schemes.map((s) => [s, new Set(Array.isArray(requirement[s]) ? requirement[s] : [])]),
    );
    const text = schemes
      .map((s) => `${s}${scopes.get(s).size ? `: ${[...scopes.get(s)].sort().join(", ")}` : ""}`)
      .join(" + ");
    return { name: schemes.join(" + ") || "anonymous", scopes, text: text || "anonymous" };
  });
}

/**
 * Security requirements. Alternatives with the same schemes on both sides, one each, are compared scope by
 * scope; otherwise alternatives are matched whole (schemes and scopes), and what is left is added or removed.
 */
function compareSecurity(bList, hList, emit, pointer) {
  const global = pointer === "#/security";
  const before = alternatives(bList);
  const after = alternatives(hList);
  const byName = (all, name) => all.filter((a) => a.name === name);
  const paired = new Set();
  for (const name of new Set(after.map((a) => a.name))) {
    const b = byName(before, name);
    const h = byName(after, name);
    if (b.length !== 1 || h.length !== 1) continue;
    paired.add(name);
    for (const [scheme, scopes] of h[0].scopes) {
      const old = b[0].scopes.get(scheme) ?? new Set();
      for (const scope of scopes)
        if (!old.has(scope))
          emit("security-scope", { change: "added", scheme, scope, global, where: "security", pointer });
      for (const scope of old)
        if (!scopes.has(scope))
          emit("security-scope", { change: "removed", scheme, scope, global, where: "security", pointer });
    }
  }
  const texts = (all) => new Set(all.filter((a) => !paired.has(a.name)).map((a) => a.text));
  const bt = texts(before);
  const ht = texts(after);
  for (const text of ht)
    if (!bt.has(text)) emit("security", { change: "added", name: text, global, where: "security", pointer });
  for (const text of bt)
    if (!ht.has(text))
      emit("security", { change: "removed", name: text, global, where: "security", pointer });
}

function compareComponents(base, head, events) {
  const operation = { operationId: "(components)", method: "", path: "", webhook: false };
  const bs = isObject(base.components?.schemas) ? base.components.schemas : {};
  const hs = isObject(head.components?.schemas) ? head.components.schemas : {};
  for (const name of Object.keys(bs)) {
    if (!(name in hs))
      events.push({
        kind: "component-schema",
        change: "removed",
        name,
        operation,
        where: `components.schemas.${name}`,
        pointer: "#/components/schemas",
        side: "head",
      });
  }
  const bsec = isObject(base.components?.securitySchemes) ? base.components.securitySchemes : {};
  const hsec = isObject(head.components?.securitySchemes) ? head.components.securitySchemes : {};
  for (const name of new Set([...Object.keys(bsec), ...Object.keys(hsec)])) {
    const change = !(name in bsec)
      ? "added"
      : !(name in hsec)
        ? "removed"
        : key(bsec[name]) !== key(hsec[name])
          ? "changed"
          : undefined;
    if (change)
      events.push({
        kind: "security-scheme",
        change,
        name,
        operation,
        where: `components.securitySchemes.${name}`,
        pointer: "#/components/securitySchemes",
        side: "head",
      });
  }
}
