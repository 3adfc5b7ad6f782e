// Object properties, through the allOf-merged view of each side: properties added, removed or kept (their
// required, readOnly and writeOnly marks, and their schemas compared below `.name`), names required without a
// property schema, and additionalProperties: false.
import { atPointer, resolve } from "../schema-view.js";

/**
 * @typedef {import("./scope.js").SchemaScope} SchemaScope
 * @typedef {ReturnType<typeof import("../schema-view.js").view>} View
 */

/** The readOnly/writeOnly marks of a property's schema, and the schema they were read from. */
const propertyFlags = (
  /** @type {import("../json.js").Json} */ schema,
  /** @type {import("../json.js").Json} */ doc,
) => {
  const node = resolve(doc, schema, "#").node;
  return { readOnly: node.readOnly === true, writeOnly: node.writeOnly === true, node };
};

/** @param {SchemaScope} scope @param {import("../json.js").Json} bv the base's view @param {import("../json.js").Json} hv the head's view */
export function compareProperties(scope, bv, hv) {
  const { emit } = scope;
  for (const [name, property] of hv.properties) {
    const old = bv.properties.get(name);
    if (old) compareProperty(scope, bv, hv, name, old, property);
    else {
      const hf = propertyFlags(property.schema, scope.head);
      emit("property", {
        change: "added",
        name,
        path: `.${name}`,
        pointer: property.pointer,
        required: hv.required.has(name),
        readOnly: hf.readOnly,
        writeOnly: hf.writeOnly,
        hasDefault: hf.node.default !== undefined,
      });
    }
  }
  for (const [name, property] of bv.properties) {
    if (hv.properties.has(name)) continue;
    const bf = propertyFlags(property.schema, scope.base);
    // Point at the `properties` the name was removed from when the head still has that place.
    const parent = property.pointer.slice(0, property.pointer.lastIndexOf("/"));
    emit("property", {
      change: "removed",
      name,
      path: `.${name}`,
      pointer: atPointer(scope.head, parent) !== undefined ? parent : hv.pointer,
      removedFrom: property.pointer,
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
}

/** A property on both sides: its marks, then its schemas (read-only or write-only on both sides stays so). */
function compareProperty(
  /** @type {import("./scope.js").SchemaScope} */ scope,
  /** @type {View} */ bv,
  /** @type {View} */ hv,
  /** @type {string} */ name,
  /** @type {import("../json.js").Json} */ old,
  /** @type {import("../json.js").Json} */ property,
) {
  const { emit, flags } = scope;
  const at = `.${name}`;
  const hf = propertyFlags(property.schema, scope.head);
  const bf = propertyFlags(old.schema, scope.base);
  const required = hv.required.has(name);
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
  scope.nested(old.schema, old.pointer, property.schema, property.pointer, at, childFlags);
}
