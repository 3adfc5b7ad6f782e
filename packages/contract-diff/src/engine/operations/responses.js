// Responses by status (added, removed, the one success status replaced by another) and, for a status on
// both sides, its headers and content.
import { child, isObject, resolve } from "../schema-view.js";
import { compareContent } from "./bodies.js";
import { forward } from "./context.js";

/**
 * @typedef {import("./context.js").OperationContext} OperationContext
 * @typedef {import("./context.js").Emit} Emit
 * @typedef {import("./context.js").Direction} Direction
 */

/**
 * @param {OperationContext} context @param {string} bp @param {string} hp @param {Emit} emit
 * @param {Direction} direction
 * @param {import("../json.js").Json} br @param {import("../json.js").Json} hr
 */
export function compareResponses(context, br = {}, bp, hr = {}, hp, emit, direction) {
  const statuses = new Set([...Object.keys(isObject(br) ? br : {}), ...Object.keys(isObject(hr) ? hr : {})]);
  // The one success status became another (200 -> 201): one change, and the two answers compared as one.
  const successes = (/** @type {import("../json.js").Json} */ responses) =>
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
      const removedFrom = child(bp, status);
      emit("response", { change: "removed", status, success, direction, where, pointer: hp, removedFrom });
      continue;
    }
    const b = resolve(context.base, br[baseStatus], child(bp, baseStatus));
    const h = resolve(context.head, hr[status], child(hp, status));
    compareHeaders(
      context,
      b.node.headers,
      child(b.pointer, "headers"),
      h.node.headers,
      child(h.pointer, "headers"),
      emit,
      direction,
      where,
    );
    compareContent(
      context,
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

/**
 * Response headers, matched in any case, reported at `prefix.header.name`.
 * @param {OperationContext} context @param {string} bp @param {string} hp @param {Emit} emit
 * @param {Direction} direction @param {string} prefix
 * @param {import("../json.js").Json} bh @param {import("../json.js").Json} hh
 */
function compareHeaders(context, bh = {}, bp, hh = {}, hp, emit, direction, prefix) {
  const lower = (/** @type {import("../json.js").Json} */ headers) =>
    /** @type {Map<string, [string, import("../json.js").Json]>} */ (
      new Map(Object.entries(isObject(headers) ? headers : {}).map(([n, v]) => [n.toLowerCase(), [n, v]]))
    );
  const before = lower(bh);
  const after = lower(hh);
  for (const [id, [name, raw]] of after) {
    const where = `${prefix}.header.${name}`;
    const h = resolve(context.head, raw, child(hp, name));
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
    const [oldName, oldRaw] = /** @type {[string, import("../json.js").Json]} */ (before.get(id));
    const b = resolve(context.base, oldRaw, child(bp, oldName));
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
        context.schemas.compare(
          b.node.schema,
          child(b.pointer, "schema"),
          h.node.schema,
          child(h.pointer, "schema"),
          direction,
          { header: true, text: true },
        ),
        emit,
        where,
      );
    }
  }
  for (const [id, [name, raw]] of before) {
    if (after.has(id)) continue;
    const b = resolve(context.base, raw, child(bp, name));
    emit("response-header", {
      change: "removed",
      direction,
      required: b.node.required === true,
      where: `${prefix}.header.${name}`,
      pointer: hp,
      removedFrom: b.pointer,
    });
  }
}
