// Request bodies (added, removed, required) and the content of a body or a response: media types added or
// removed, a schema set or unset, and the schemas of a media type on both sides compared.
import { child, isObject, resolve } from "../schema-view.js";
import { forward } from "./context.js";

/**
 * @typedef {import("./context.js").OperationContext} OperationContext
 * @typedef {import("./context.js").Emit} Emit
 * @typedef {import("./context.js").Direction} Direction
 */

/**
 * @param {OperationContext} context @param {string} bp @param {string} hp @param {Emit} emit
 * @param {Direction} direction
 */
export function compareRequestBody(
  context,
  /** @type {import("../json.js").Json} */ rawB,
  bp,
  /** @type {import("../json.js").Json} */ rawH,
  hp,
  emit,
  direction,
) {
  if (rawB === undefined && rawH === undefined) return;
  if (rawB === undefined) {
    emit("request-body", {
      change: "added",
      required: resolve(context.head, rawH, hp).node.required === true,
      where: "body",
      pointer: hp,
    });
    return;
  }
  const b = resolve(context.base, rawB, bp);
  if (rawH === undefined) {
    emit("request-body", { change: "removed", where: "body", pointer: hp.replace(/\/requestBody$/, "") });
    return;
  }
  const h = resolve(context.head, rawH, hp);
  if ((b.node.required === true) !== (h.node.required === true)) {
    emit("request-body-required", {
      change: h.node.required === true ? "set" : "unset",
      where: "body",
      pointer: h.pointer,
    });
  }
  compareContent(
    context,
    b.node.content,
    child(b.pointer, "content"),
    h.node.content,
    child(h.pointer, "content"),
    emit,
    direction,
    "body",
  );
}

/**
 * Content by media type, reported at `prefix` (and `prefix(media)` for one other than application/json).
 * @param {OperationContext} context @param {string} bp @param {string} hp @param {Emit} emit
 * @param {Direction} direction @param {string} prefix
 * @param {import("../json.js").Json} bc @param {import("../json.js").Json} hc
 */
export function compareContent(context, bc = {}, bp, hc = {}, hp, emit, direction, prefix) {
  const label = (/** @type {string} */ media) =>
    media === "application/json" ? prefix : `${prefix}(${media})`;
  const before = byEssence(bc);
  const after = byEssence(hc);
  for (const [essence, media] of after) {
    const item = hc[media];
    const where = label(media);
    const pointer = child(hp, media);
    const oldMedia = before.get(essence);
    const old = oldMedia === undefined ? undefined : bc[oldMedia];
    if (!old) {
      emit("media-type", { change: "added", direction, media, where, pointer });
      continue;
    }
    const hasB = isObject(old) && old.schema !== undefined;
    const hasH = isObject(item) && item.schema !== undefined;
    if (hasB !== hasH)
      emit("media-schema", { change: hasH ? "set" : "unset", direction, media, where, pointer });
    if (!hasB || !hasH) continue;
    const events = context.schemas.compare(
      old.schema,
      child(bp, /** @type {string} */ (oldMedia), "schema"),
      item.schema,
      child(pointer, "schema"),
      direction,
    );
    forward(XML.test(essence) ? events.map(markXml) : events, emit, where);
  }
  for (const [essence, media] of before) {
    if (!after.has(essence))
      emit("media-type", {
        change: "removed",
        direction,
        media,
        where: label(media),
        pointer: hp,
        removedFrom: child(bp, media),
      });
  }
}

/**
 * A content map keyed by each media type's essence (type/subtype, lower case): parameters such as `q=1` or
 * `charset=utf-8` do not make another media type (RFC 9110, section 8.3.1), so `application/json` and
 * `application/json; charset=utf-8` are the same body.
 * @returns {Map<string, string>} essence -> the key as written
 */
function byEssence(/** @type {import("../json.js").Json} */ content) {
  /** @type {Map<string, string>} */
  const map = new Map();
  for (const media of Object.keys(isObject(content) ? content : {})) {
    const essence = (media.split(";")[0] ?? "").trim().toLowerCase();
    if (!map.has(essence)) map.set(essence, media);
  }
  return map;
}

const XML = /[/+]xml$/;

/** XML carries text and elements, not JSON types: a type change in an XML body is marked so (engine/index.js). */
const markXml = (/** @type {import("../schema/scope.js").SchemaEvent} */ event) =>
  event.kind === "type" ? { ...event, xml: true } : event;
