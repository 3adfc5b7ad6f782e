// What the docs page's script needs, taken from the bundled contract when the page is generated and inlined as
// JSON (generate.mjs): for the console, every operation's parameters, body and answers with their
// schemas (the components' schemas once, lightened: no descriptions or examples, which the page's HTML shows);
// for the search, an index of operations, parameters, schema fields, error types and description text.
import { camelCase, deref } from "@workapi/spec";
import { bodyOf, parameterExample } from "@workapi/spec/code-samples";
import { schemaAnchor, schemaName } from "./docs-schema-html.mjs";

/** Keywords the console does not use: prose, examples and extensions (the HTML carries the prose). */
const DROPPED = new Set(["description", "examples", "example", "discriminator", "externalDocs", "title"]);

/** A schema without what the console does not read. */
export function lighten(schema) {
  if (Array.isArray(schema)) return schema.map(lighten);
  if (schema === null || typeof schema !== "object") return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith("x-")) continue;
    // Property names, enum values and defaults are data, not schemas: kept as they are, their values lightened.
    if (key === "properties") {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, lighten(sub)]));
    } else if (key === "enum" || key === "const" || key === "default") out[key] = value;
    else out[key] = lighten(value);
  }
  return out;
}

/** The answers' JSON schemas by status (null for an answer with no JSON body). */
function responsesOf(doc, operation) {
  const out = {};
  for (const [status, ref] of Object.entries(operation.responses ?? {})) {
    const response = deref(doc, ref).node;
    const schema = response.content?.["application/json"]?.schema;
    out[status] = schema ? lighten(schema) : null;
  }
  return out;
}

/** One operation as the console builds its form from it. */
export function consoleOperation(doc, { path, method, raw }) {
  const params = (raw.parameters ?? []).map((ref) => {
    const parameter = deref(doc, ref).node;
    const entry = {
      name: parameter.name,
      in: parameter.in,
      required: parameter.required === true,
      schema: lighten(parameter.schema ?? {}),
      explode: parameter.explode ?? parameter.style === undefined,
    };
    // A cursor comes from an earlier answer; the example one means nothing to another server.
    const example =
      raw["x-pagination"] && parameter.name === "cursor" ? undefined : parameterExample(parameter);
    if (example !== undefined) entry.example = example;
    return entry;
  });
  const entry = {
    id: raw.operationId,
    name: raw["x-interface-name"],
    method,
    path,
    call: `api.${raw["x-interface-name"].split(".").map(camelCase).join(".")}`,
    params,
    responses: responsesOf(doc, raw),
  };
  const body = bodyOf(doc, raw);
  if (body) {
    const media = deref(doc, raw.requestBody).node.content[body.type];
    entry.body = {
      type: body.type,
      required: raw.requestBody.required === true,
      schema: lighten(media.schema),
    };
    if (body.example !== undefined) entry.body.example = body.example;
  }
  return entry;
}

/** The console's data: every operation, and the components' schemas its schemas refer to. */
export function consoleData(doc, operations) {
  const schemas = Object.fromEntries(
    Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) => [name, lighten(schema)]),
  );
  return { operations: operations.map((operation) => consoleOperation(doc, operation)), schemas };
}

/** Plain text of a Markdown description, shortened, for the search to match and show. */
function plain(text, limit = 200) {
  const flat = String(text ?? "")
    .replace(/[`*_#>|[\]]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

/** The error types the contract defines: type -> the name of its schema (`dev_org_deactivated` -> ErrorDevOrgDeactivated). */
export function errorTypes(doc) {
  const out = new Map();
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    const type = schema.properties?.type?.const;
    if (typeof type === "string" && /^Error/.test(name)) out.set(type, name);
  }
  return out;
}

/**
 * The search index: [kind, label, anchor, context, text] per entry. Kinds: `operation`, `parameter`,
 * `field`, `error` (an error type), `schema`. The page ranks them by where the query matches.
 */
export function searchIndex(doc, operations, anchorOf) {
  const entries = [];
  for (const operation of operations) {
    const { raw, method, path } = operation;
    const anchor = anchorOf(operation);
    const name = raw["x-interface-name"];
    const text = plain(`${raw.summary ?? ""} ${raw.description ?? ""}`, 400);
    entries.push(["operation", name, anchor, `${method.toUpperCase()} ${path}`, text]);
    for (const ref of raw.parameters ?? []) {
      const parameter = deref(doc, ref).node;
      entries.push([
        "parameter",
        parameter.name,
        anchor,
        `${parameter.in} parameter of ${name} (${method.toUpperCase()})`,
        plain(parameter.description),
      ]);
    }
  }
  const errors = errorTypes(doc);
  for (const [type, name] of errors) {
    const schema = doc.components.schemas[name];
    entries.push(["error", type, schemaAnchor(name), `error type · ${name}`, plain(schema.description)]);
  }
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    entries.push(["schema", name, schemaAnchor(name), "schema", plain(schema.description)]);
    for (const part of [schema, ...(schema.allOf ?? [])]) {
      if (part.$ref && !schemaName(part.$ref)) continue;
      for (const [field, property] of Object.entries(part.properties ?? {})) {
        const description = property.description ?? deref(doc, property).node?.description;
        entries.push(["field", field, schemaAnchor(name, field), `field of ${name}`, plain(description)]);
      }
    }
  }
  return entries;
}
