// One operation on both sides: what it says about itself (deprecation and x-sunset, stability, operationId,
// tags, x-pagination), then its security, parameters, request body, responses and callbacks.
import { readSunset, stabilityRank } from "../../rules/support.js";
import { child, key } from "../schema-view.js";
import { compareRequestBody } from "./bodies.js";
import { compareCallbacks } from "./callbacks.js";
import { flip } from "./context.js";
import { compareParameters } from "./parameters.js";
import { compareResponses } from "./responses.js";
import { compareSecurity } from "./security.js";

/**
 * @typedef {import("./context.js").OperationContext} OperationContext
 * @typedef {import("./context.js").Emit} Emit
 * @typedef {import("./context.js").Direction} Direction
 * @typedef {import("./matching.js").OperationEntry} OperationEntry
 */

/**
 * `outward`: the direction of what the caller sends (reversed for a webhook, which the server sends).
 * @param {OperationContext} context @param {OperationEntry} b @param {OperationEntry} h
 * @param {{ webhook: boolean }} operation @param {Emit} emit @param {Direction} outward
 */
export function compareOperation(context, b, h, operation, emit, outward) {
  const bo = b.operation;
  const ho = h.operation;
  compareMarks(bo, ho, emit);
  if (!operation.webhook) {
    const where = ho.security !== undefined ? child(h.pointer, "security") : "#/security";
    compareSecurity(bo.security ?? context.base.security, ho.security ?? context.head.security, emit, where);
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
  compareParameters(context, b, h, emit, outward);
  compareRequestBody(
    context,
    bo.requestBody,
    child(b.pointer, "requestBody"),
    ho.requestBody,
    child(h.pointer, "requestBody"),
    emit,
    outward,
  );
  compareResponses(
    context,
    bo.responses,
    child(b.pointer, "responses"),
    ho.responses,
    child(h.pointer, "responses"),
    emit,
    flip(outward),
  );
  compareCallbacks(context, bo.callbacks, b.pointer, ho.callbacks, h.pointer, emit, outward);
}

/**
 * What an added operation says about itself, where it cannot be read: an `x-stability-level` that is not a
 * level, an `x-sunset` that is not a date on a deprecated operation. Readable marks of a new operation are
 * news to nobody, so only the unreadable ones are reported. @param {Emit} emit
 */
export function checkAddedMarks(/** @type {import("../json.js").Json} */ ho, emit) {
  if (ho["x-stability-level"] !== undefined && stabilityRank(ho["x-stability-level"]) < 0)
    emit("operation-stability", { before: undefined, after: ho["x-stability-level"] });
  if (ho.deprecated && readSunset(ho["x-sunset"]) === "invalid")
    emit("operation-sunset", { change: "set", before: undefined, after: ho["x-sunset"] });
}

/** Deprecation (and its x-sunset), x-stability-level, operationId and tags. @param {Emit} emit */
function compareMarks(
  /** @type {import("../json.js").Json} */ bo,
  /** @type {import("../json.js").Json} */ ho,
  emit,
) {
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
  // An unreadable level is reported on every change to the operation, as the peer does: a policy that cannot
  // be read cannot be enforced.
  if (bo["x-stability-level"] !== ho["x-stability-level"] || stabilityRank(ho["x-stability-level"]) < 0) {
    emit("operation-stability", { before: bo["x-stability-level"], after: ho["x-stability-level"] });
  }
  if (bo.operationId !== ho.operationId)
    emit("operation-id", { before: bo.operationId, after: ho.operationId });
  const bt = new Set(bo.tags ?? []);
  const ht = new Set(ho.tags ?? []);
  for (const tag of ht) if (!bt.has(tag)) emit("operation-tag", { change: "added", name: tag });
  for (const tag of bt) if (!ht.has(tag)) emit("operation-tag", { change: "removed", name: tag });
}
