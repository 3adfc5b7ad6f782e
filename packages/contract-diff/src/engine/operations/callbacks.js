// Callbacks of an operation, by name and expression: each callback operation added or removed, or its
// request body and responses compared with the directions reversed.
import { HTTP_METHODS } from "@workapi/spec";
import { child, isObject, resolve } from "../schema-view.js";
import { compareRequestBody } from "./bodies.js";
import { flip } from "./context.js";
import { compareResponses } from "./responses.js";

/**
 * @typedef {import("./context.js").OperationContext} OperationContext
 * @typedef {import("./context.js").Emit} Emit
 * @typedef {import("./context.js").Direction} Direction
 */

/**
 * @param {OperationContext} context @param {string} bp the base operation's pointer
 * @param {string} hp the head operation's pointer @param {Emit} emit @param {Direction} outward
 */
export function compareCallbacks(
  context,
  /** @type {import("../json.js").Json} */ bc,
  bp,
  /** @type {import("../json.js").Json} */ hc,
  hp,
  emit,
  outward,
) {
  const names = new Set([...Object.keys(isObject(bc) ? bc : {}), ...Object.keys(isObject(hc) ? hc : {})]);
  for (const name of names) {
    const b =
      isObject(bc) && bc[name] !== undefined
        ? resolve(context.base, bc[name], child(bp, "callbacks", name))
        : undefined;
    const h =
      isObject(hc) && hc[name] !== undefined
        ? resolve(context.head, hc[name], child(hp, "callbacks", name))
        : undefined;
    const bEntries = b ? Object.entries(b.node) : [];
    const hEntries = h ? Object.entries(h.node) : [];
    const bPointer = b?.pointer ?? bp;
    const hPointer = h?.pointer ?? hp;
    for (const [expression, rawItem] of hEntries) {
      const hi = resolve(context.head, rawItem, child(hPointer, expression));
      const old = bEntries.find(([e]) => e === expression);
      const bi = old ? resolve(context.base, old[1], child(bPointer, expression)) : undefined;
      compareCallbackItem(context, name, expression, bi, hi, emit, outward);
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
}

/**
 * One callback expression's path item on both sides (`bi` undefined when the base has none), method by
 * method.
 * @param {OperationContext} context @param {string} name @param {string} expression
 * @param {{ node: import("../json.js").Json, pointer: string } | undefined} bi
 * @param {{ node: import("../json.js").Json, pointer: string }} hi
 * @param {Emit} emit @param {Direction} outward
 */
function compareCallbackItem(context, name, expression, bi, hi, emit, outward) {
  for (const method of HTTP_METHODS) {
    const ho = hi.node[method];
    const bo = bi?.node[method];
    const where = `callback(${name}).${method.toUpperCase()} ${expression}`;
    if (isObject(ho) && !isObject(bo))
      emit("callback", { change: "added", name, where, pointer: child(hi.pointer, method) });
    else if (isObject(bo) && !isObject(ho))
      emit("callback", { change: "removed", name, where, pointer: hi.pointer });
    else if (isObject(ho) && isObject(bo)) {
      const bPointer = /** @type {{ pointer: string }} */ (bi).pointer;
      // The server calls the caller back: what it sends is read by the caller, what the caller answers is sent.
      const prefixed = (/** @type {string} */ kind, /** @type {Record<string, unknown>} */ fields) =>
        emit(kind, { ...fields, where: `${where} ${fields.where ?? ""}`.trim() });
      compareRequestBody(
        context,
        bo.requestBody,
        child(bPointer, method, "requestBody"),
        ho.requestBody,
        child(hi.pointer, method, "requestBody"),
        prefixed,
        flip(outward),
      );
      compareResponses(
        context,
        bo.responses,
        child(bPointer, method, "responses"),
        ho.responses,
        child(hi.pointer, method, "responses"),
        prefixed,
        outward,
      );
    }
  }
}
