// The docs page's schemas as HTML, rendered when the page is generated (docs-html.mjs lays out the
// page): a field list per object, each field with its type, whether it is required, its choices, bounds and
// default, and its description. A named schema (`$ref` to components/schemas) is rendered once, in the page's
// Schemas part, and linked wherever it is used, which keeps the page light; a schema written in place is
// rendered in place. No script is needed to read any of it.
import { contractDay, deref } from "@workapi/spec";
import { marked } from "marked";

/** Text safe inside an HTML element or a quoted attribute. */
export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Text safe inside an HTML element (not an attribute): quotes stay as they are, which keeps code light. */
export const escapeText = (text) => String(text).replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Markdown of the contract as HTML (the contract is the house's own text, written by hand). */
export const markdown = (text) => (text ? marked.parse(String(text), { async: false }) : "");
/** One line of Markdown as inline HTML. */
export const inlineMarkdown = (text) => (text ? marked.parseInline(String(text), { async: false }) : "");

/** The name a `#/components/schemas/<Name>` reference gives. */
export const schemaName = (ref) =>
  typeof ref === "string" && ref.startsWith("#/components/schemas/") ? ref.slice(21) : undefined;

/** The anchor of a named schema's part of the page, and of one of its fields. */
export const schemaAnchor = (name, field) => (field ? `schema/${name}/${field}` : `schema/${name}`);

const link = (name) => `<a href="#${escapeHtml(schemaAnchor(name))}">${escapeHtml(name)}</a>`;

/** Follows `$ref`s; answers the schema and the name of the named schema the chain ends on. */
function follow(doc, schema) {
  const { node, ref } = deref(doc, schema);
  return { node: node ?? {}, name: schemaName(ref) };
}

/** A short type label: `string`, `integer`, `array of Tag`, a link for a named schema. */
export function typeLabel(doc, schema) {
  if (!schema || typeof schema !== "object") return "any";
  const name = schemaName(schema.$ref);
  if (name) return link(name);
  if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  for (const key of ["oneOf", "anyOf"]) {
    if (Array.isArray(schema[key])) return schema[key].map((part) => typeLabel(doc, part)).join(" | ");
  }
  const types = [schema.type ?? (schema.properties ? "object" : undefined)].flat().filter(Boolean);
  if (types.includes("array")) {
    const rest = types.filter((type) => type !== "array");
    return [`array of ${typeLabel(doc, schema.items)}`, ...rest].join(" | ");
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((part) => typeLabel(doc, part)).join(" &amp; ");
  return escapeHtml(types.join(" | ") || "any");
}

const code = (value) =>
  `<code>${escapeHtml(typeof value === "string" ? value : JSON.stringify(value))}</code>`;

/** The facts beside a field's type: its choices, default, format and bounds. */
function facts(doc, schema) {
  const { node } = follow(doc, schema);
  const items = node.type === "array" && node.items ? follow(doc, node.items).node : undefined;
  const out = [];
  const choices = node.enum ?? items?.enum;
  if (choices) out.push(`one of ${choices.map(code).join(", ")}`);
  if (node.default !== undefined) out.push(`default ${code(node.default)}`);
  if (node.format) out.push(escapeHtml(node.format));
  const bounds = [
    ["minLength", "at least %s character"],
    ["maxLength", "at most %s character"],
    ["minimum", "&ge; %s"],
    ["maximum", "&le; %s"],
    ["minItems", "at least %s item"],
    ["maxItems", "at most %s item"],
    ["minProperties", "at least %s field"],
  ];
  for (const [key, text] of bounds) {
    if (node[key] === undefined) continue;
    const plural = node[key] !== 1 && !text.startsWith("&") ? "s" : "";
    out.push(text.replace("%s", node[key]) + plural);
  }
  if (node.pattern) out.push(`matches ${code(node.pattern)}`);
  if (node.uniqueItems) out.push("unique items");
  return out.length ? `<span class="facts">${out.join(" · ")}</span>` : "";
}

/** The inline object (not a named one) a field's value holds, whose fields are listed under it. */
function inlineObject(schema) {
  if (!schema || schema.$ref) return undefined;
  if (schema.properties || schema.allOf || schema.oneOf || schema.anyOf) return schema;
  if (schema.type === "array" && schema.items && !schema.items.$ref) return inlineObject(schema.items);
  return undefined;
}

/**
 * The badge of something the contract deprecates, with the date of its `x-sunset` (after which it may stop
 * answering) when it has one: "Deprecated: sunset 2027-06-30".
 */
export function deprecatedBadge(sunset, label = "Deprecated") {
  const date = contractDay(sunset);
  return `<span class="badge deprecated">${escapeHtml(label)}${date ? `: sunset ${escapeHtml(date)}` : ""}</span>`;
}

/**
 * One field: name, type, required, facts, description and, for an object written in place, its own fields.
 * `anchor` gives the field an id, which its name links to (a deep link a reader can copy) and the search leads
 * to; the markup is kept lean (no wrapper elements), as the page lists some 3,000 fields.
 */
export function fieldHtml(doc, { name, schema, required, where, anchor, depth = 0 }) {
  const { node } = follow(doc, schema);
  const description = schema?.description ?? node.description;
  // `deprecated` and `x-sunset` may sit beside a `$ref` (or, for a parameter, on the parameter itself).
  const deprecated = schema?.deprecated === true || node.deprecated === true;
  const nested = depth < 6 ? inlineObject(schema) : undefined;
  const id = anchor ? escapeHtml(anchor) : "";
  const title = `<code class="field-name">${escapeHtml(name)}</code>`;
  return [
    `<li${id ? ` id="${id}"` : ""}>`,
    id ? `<a href="#${id}">${title}</a>` : title,
    where ? ` <span class="in">${escapeHtml(where)}</span>` : "",
    ` <span class="type">${typeLabel(doc, schema)}</span>`,
    required ? ' <span class="required">required</span>' : "",
    deprecated ? ` ${deprecatedBadge(schema?.["x-sunset"] ?? node["x-sunset"], "deprecated")}` : "",
    ` ${facts(doc, schema)}`,
    description ? `<p>${inlineMarkdown(description)}</p>` : "",
    nested ? fieldsHtml(doc, nested, { base: anchor, depth: depth + 1 }) : "",
    "</li>",
  ].join("");
}

/**
 * The fields of an object schema as a list; `allOf` parts are listed together, `oneOf`/`anyOf` as
 * alternatives. `base` (a named schema's anchor, an operation's part) prefixes each field's anchor.
 */
export function fieldsHtml(doc, schema, { base, depth = 0 } = {}) {
  const parts = [];
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) =>
    fieldHtml(doc, {
      name,
      schema: property,
      required: required.has(name),
      anchor: base ? `${base}/${name}` : undefined,
      depth,
    }),
  );
  if (fields.length) parts.push(`<ul class="fields">${fields.join("")}</ul>`);
  for (const part of schema.allOf ?? []) {
    const name = schemaName(part.$ref);
    parts.push(
      name
        ? `<p class="includes">With every field of ${link(name)}.</p>`
        : fieldsHtml(doc, part, { base, depth }),
    );
  }
  for (const key of ["oneOf", "anyOf"]) {
    if (!Array.isArray(schema[key])) continue;
    // Each alternative's fields get anchors of their own: two alternatives may share a field's name.
    const branches = schema[key].map((part, index) =>
      part.$ref
        ? `<li>${typeLabel(doc, part)}</li>`
        : `<li>${typeLabel(doc, part)}${fieldsHtml(doc, part, { base: base && `${base}/${key}${index}`, depth: depth + 1 })}</li>`,
    );
    parts.push(
      `<p class="includes">${key === "oneOf" ? "One of" : "Any of"}:</p><ul class="alternatives">${branches.join("")}</ul>`,
    );
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
    parts.push(`<p class="includes">Any other field: ${typeLabel(doc, schema.additionalProperties)}.</p>`);
  }
  return parts.join("");
}

/**
 * A schema as the page shows it where it is used: a named one by its link only (its fields are rendered once,
 * in the Schemas part, rather than again under each of the operations that use it, which made the page 1 MB
 * heavier), else its fields.
 */
export function schemaBlock(doc, schema, base) {
  const { node, name } = follow(doc, schema);
  if (name) return `<p class="schema-ref">Schema: ${link(name)}</p>`;
  const body = fieldsHtml(doc, node, { base });
  return body || `<p class="schema-ref">${typeLabel(doc, node)} ${facts(doc, node)}</p>`;
}

/** A named schema's own part of the page: its description and fields, each field with an anchor. */
export function namedSchemaHtml(doc, name, schema) {
  const body = fieldsHtml(doc, schema, { base: schemaAnchor(name) });
  const type = body ? "" : `<p>${typeLabel(doc, schema)} ${facts(doc, schema)}</p>`;
  // An error's type, for the search to find the error by the `type` its answers carry.
  const error = /^Error/.test(name) ? schema.properties?.type?.const : undefined;
  const mark = typeof error === "string" ? ` data-error-type="${escapeHtml(error)}"` : "";
  return [
    `<section class="schema" id="${escapeHtml(schemaAnchor(name))}"${mark}>`,
    `<h3>${escapeHtml(name)}</h3>`,
    markdown(schema.description),
    type,
    body,
    "</section>",
  ].join("\n");
}
