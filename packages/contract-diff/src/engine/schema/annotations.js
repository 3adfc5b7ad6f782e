// What a schema says about itself: deprecated (with x-sunset), x-stability-level, and the discriminator
// (its property name and mapping).
import { isObject } from "../schema-view.js";

/** @typedef {import("./scope.js").Emit} Emit */

/** @param {Emit} emit */
export function compareAnnotations(
  /** @type {import("../json.js").Json} */ b,
  /** @type {import("../json.js").Json} */ h,
  emit,
) {
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
    else compareDiscriminators(bd, hd, emit);
  }
}

/** Two discriminators: the property they read, and the mapping from values to schemas. @param {Emit} emit */
function compareDiscriminators(
  /** @type {import("../json.js").Json} */ bd,
  /** @type {import("../json.js").Json} */ hd,
  emit,
) {
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
