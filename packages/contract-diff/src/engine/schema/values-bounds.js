// Allowed values and numeric bounds: enum, x-extensible-enum, const and default; maximum/minimum and the
// other max*/min* keywords, OpenAPI 3.0's boolean exclusive bounds, multipleOf and uniqueItems.
import { enumOf, key } from "../schema-view.js";

/** @typedef {import("./scope.js").Emit} Emit */

const MAX_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];
const MIN_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];

/** @param {Emit} emit */
export function compareValues(
  /** @type {import("../json.js").Json} */ b,
  /** @type {import("../json.js").Json} */ h,
  emit,
) {
  const be = enumOf(b);
  const he = enumOf(h);
  if (be && he) {
    const added = he.filter(
      (/** @type {import("../json.js").Json} */ v) =>
        !be.some((/** @type {import("../json.js").Json} */ w) => key(w) === key(v)),
    );
    const removed = be.filter(
      (/** @type {import("../json.js").Json} */ v) =>
        !he.some((/** @type {import("../json.js").Json} */ w) => key(w) === key(v)),
    );
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

/** @param {Emit} emit */
export function compareBounds(
  /** @type {import("../json.js").Json} */ b,
  /** @type {import("../json.js").Json} */ h,
  emit,
) {
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
