// Writes `x-codeSamples` into every operation of the bundled contract: a curl command and a TypeScript call
// with @workapi/client, built from the operation's examples. The bundle generator (scripts/generate.mjs)
// runs it on the bundle before the bundle is written, so the spec packages, the types and the docs all carry
// the samples.
//
// The curl samples are meant to run as shown. They read the server and the token from `$WORKAPI_URL` and
// `$WORKAPI_TOKEN`, and every record id in them from a shell variable named after the record's family
// (`$ISSUE_ID`, `$TAG_ID`...), because an example id names no record on the reader's server. SAMPLE_VARIABLES
// and the contract's record families describe them all; the docs page explains them and the server's tests set
// them from a seeded server.
import { camelCase, deref, operationsOf, recordFamilies } from "../index.js";

/** The variables the curl samples read besides the record ids, with what a reader sets them to. */
export const SAMPLE_VARIABLES = {
  WORKAPI_URL: "the server's address, for example `http://localhost:8080`",
  WORKAPI_TOKEN: "an access token (the admin token `pnpm start` prints, or one from `auth-tokens.create`)",
  FILE: "the path of a file to upload",
};

// Example ids are `<PREFIX>-<number>`; the prefix tells the family of the record an id names. The families,
// their prefixes and how to name one of their records are the contract's (`x-record-families`); the variable
// for a family's ids is its name in capitals with `_ID` (`code_change` -> `$CODE_CHANGE_ID`).
const ID_SHAPE = /^([A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*)-\d+$/;
// Families whose records every organization has under the same ids (the built-in states): their ids stay as
// written.
const SHARED_FAMILIES = new Set(["custom_state"]);

/** The families' variables by display id prefix, and what each variable holds. */
function familyVariables(doc) {
  const byPrefix = new Map();
  const records = new Map();
  for (const family of recordFamilies(doc)) {
    if (SHARED_FAMILIES.has(family.name)) continue;
    const variable = `${family.name.toUpperCase()}_ID`;
    byPrefix.set(family.prefix, variable);
    records.set(variable, family.displayName);
  }
  return { byPrefix, records };
}

/**
 * The variable for an id of a family, or undefined for any other value. Id-shaped values with no family's
 * prefix (a custom object's own unique key, ids of records this service has no operations for, such as
 * groups, brands and sync units: a filter naming them is valid and simply matches nothing) stay as written;
 * packages/spec/test/record-families.test.ts keeps the few the examples may hold to a justified list.
 */
function variableFor(value, byPrefix) {
  if (typeof value !== "string") return undefined;
  const match = ID_SHAPE.exec(value);
  return match ? byPrefix.get(match[1]) : undefined;
}

// A marker no example contains (a private-use character, which JSON.stringify leaves as it is): where a
// variable goes, before the text is quoted for the shell.
const MARK = "\u{E000}";

/**
 * A copy of `value` with every record id replaced by a marked variable name. `used` maps each example id of
 * the sample to its variable: the second distinct id of a kind in one sample is `<NAME>_2`, and so on, so
 * that a sample naming two stages names two variables.
 */
function withVariables(value, byPrefix, used) {
  if (Array.isArray(value)) return value.map((item) => withVariables(item, byPrefix, used));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withVariables(item, byPrefix, used)]),
    );
  }
  const variable = variableFor(value, byPrefix);
  if (!variable) return value;
  if (!used.has(value)) {
    const taken = [...used.values()].filter((name) => name === variable || name.startsWith(`${variable}_`));
    used.set(value, taken.length === 0 ? variable : `${variable}_${taken.length + 1}`);
  }
  return `${MARK}${used.get(value)}${MARK}`;
}

/** Text for inside double quotes (or an unquoted here-document when `quote` is false), markers as `$NAME`. */
function shellText(text, quote = true) {
  const escaped = text.replace(quote ? /[\\"`$]/g : /[\\`$]/g, (char) => `\\${char}`);
  return escaped.replace(new RegExp(`${MARK}([A-Z0-9_]+)${MARK}`, "g"), (_, name) => `$${name}`);
}

/** A query parameter's value in the form the server reads: arrays comma-separated (`style: form`). */
export function queryValue(value) {
  if (Array.isArray(value)) return value.map(queryValue).join(",");
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A parameter's example: its `example`, else its first named example, else its schema's. */
export function parameterExample(parameter) {
  if (parameter.example !== undefined) return parameter.example;
  const first = Object.values(parameter.examples ?? {})[0];
  if (first?.value !== undefined) return first.value;
  return parameter.schema?.example;
}

/** An operation's request body: its media type, its example and its schema (undefined without a body). */
export function bodyOf(doc, operation) {
  const body = operation.requestBody && deref(doc, operation.requestBody).node;
  if (!body) return undefined;
  const [type, media] = Object.entries(body.content ?? {})[0] ?? [];
  if (!media) return undefined;
  const example = media.example ?? Object.values(media.examples ?? {})[0]?.value;
  return { type, example, schema: media.schema && deref(doc, media.schema).node };
}

function curlSample(doc, { path, method, operation }, where, byPrefix) {
  const used = new Map([
    ["", "WORKAPI_URL"],
    [" ", "WORKAPI_TOKEN"],
  ]);
  const lines = [];
  if (method === "get") {
    lines.push(`curl -G "$WORKAPI_URL${path}"`, `-H "Authorization: Bearer $WORKAPI_TOKEN"`);
    for (const ref of operation.parameters ?? []) {
      const parameter = deref(doc, ref).node;
      if (parameter.in !== "query") continue;
      // A cursor comes from an earlier answer; the example one means nothing to another server.
      if (operation["x-pagination"] && parameter.name === "cursor") continue;
      const example = parameterExample(parameter);
      if (example === undefined) {
        if (parameter.required)
          throw new Error(`${where}: required parameter ${parameter.name} has no example`);
        continue;
      }
      const value = withVariables(example, byPrefix, used);
      lines.push(`--data-urlencode "${shellText(`${parameter.name}=${queryValue(value)}`)}"`);
    }
    return { source: lines.join(" \\\n  "), used };
  }
  lines.push(`curl "$WORKAPI_URL${path}"`, `-H "Authorization: Bearer $WORKAPI_TOKEN"`);
  const body = bodyOf(doc, operation);
  if (body?.example === undefined) {
    if (operation.requestBody) throw new Error(`${where}: the request body has no example`);
    lines.push("-X POST");
    return { source: lines.join(" \\\n  "), used };
  }
  const example = withVariables(body.example, byPrefix, used);
  if (body.type === "multipart/form-data") {
    for (const [name, value] of Object.entries(example)) {
      const field = deref(doc, body.schema?.properties?.[name] ?? {}).node;
      if (field.contentMediaType !== undefined || field.format === "binary") {
        used.set("  ", "FILE");
        lines.push(`-F "${name}=@$FILE"`);
      } else {
        lines.push(`-F "${shellText(`${name}=${queryValue(value)}`)}"`);
      }
    }
    return { source: lines.join(" \\\n  "), used };
  }
  // The body goes in a here-document so that it can read the id variables and still be plain JSON.
  lines.push(`-H "Content-Type: application/json"`, "--data-binary @- <<JSON");
  const json = shellText(JSON.stringify(example, null, 2), false);
  return { source: `${lines.join(" \\\n  ")}\n${json}\nJSON`, used };
}

/** A JavaScript literal of a JSON value, with the quotes left off the keys that need none. */
function literal(value, indent = "") {
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object")) {
      return `[${value.map((item) => literal(item)).join(", ")}]`;
    }
    const inner = `${indent}  `;
    return `[\n${value.map((item) => `${inner}${literal(item, inner)}`).join(",\n")},\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inner = `${indent}  `;
    const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
    return `{\n${entries.map(([name, item]) => `${inner}${key(name)}: ${literal(item, inner)}`).join(",\n")},\n${indent}}`;
  }
  return JSON.stringify(value);
}

function typescriptSample(doc, twin, operation, where) {
  const name = operation["x-interface-name"];
  const call = `api.${name.split(".").map(camelCase).join(".")}`;
  const body = bodyOf(doc, twin);
  let argument = body?.example === undefined ? "{}" : literal(body.example);
  const imports = [];
  if (body?.type === "multipart/form-data") {
    // The file field of a form body takes a Blob; Node reads one from a path with openAsBlob.
    const example = { ...body.example };
    const files = [];
    for (const field of Object.keys(example)) {
      const property = deref(doc, body.schema?.properties?.[field] ?? {}).node;
      if (property.contentMediaType !== undefined || property.format === "binary") {
        files.push(field);
        delete example[field];
      }
    }
    const fileName = typeof example.file_name === "string" ? example.file_name : "file";
    imports.push(`import { openAsBlob } from "node:fs";`);
    argument = literal(example).replace(
      /\n}$/,
      `\n${files.map((field) => `  ${field}: await openAsBlob(${JSON.stringify(fileName)}),`).join("\n")}\n}`,
    );
  }
  if (argument === undefined) throw new Error(`${where}: no body for the TypeScript sample`);
  const types = new Set(operation["x-error-types"] ?? []);
  const cases = [];
  if (types.has("not_found")) {
    cases.push(
      `    case "not_found":`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample's TypeScript source
      "      console.error(`Not found: ${error.message}`);",
      "      break;",
    );
  }
  cases.push(
    `    case "too_many_requests":`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample's TypeScript source
    "      console.error(`Rate limited: try again in ${error.retry_after} s`);",
    "      break;",
  );
  return [
    ...imports,
    `import { createClient } from "@workapi/client";`,
    "",
    "const api = createClient({",
    `  baseUrl: process.env.WORKAPI_URL ?? "http://localhost:8080",`,
    `  token: process.env.WORKAPI_TOKEN ?? "",`,
    "});",
    "",
    `const { data, error } = await ${call}(${argument});`,
    "if (error) {",
    "  // The error body's `type` tells the errors apart; each type has its own fields.",
    "  switch (error.type) {",
    ...cases,
    "    default:",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample's TypeScript source
    "      console.error(`${error.type}: ${error.message}`);",
    "  }",
    "} else {",
    "  console.log(data);",
    "}",
    "",
  ].join("\n");
}

/**
 * The record ids each operation's curl sample reads, in document order: for every operation, its variables
 * (`TAG_ID`, `TAG_ID_2`...) with the example ids they stand for. A reader sets them to records of their own
 * server; a server that holds the examples' records (the seeded one) runs the samples with them as written.
 */
export function sampleIds(doc) {
  const { byPrefix } = familyVariables(doc);
  return operationsOf(doc).map(({ path, method, operation }) => {
    const where = `${method.toUpperCase()} ${path} (${operation.operationId})`;
    const { used } = curlSample(doc, { path, method, operation }, where, byPrefix);
    const ids = {};
    for (const [value, name] of used) if (/_ID(_\d+)?$/.test(name)) ids[name] = value;
    return { path, method, operationId: operation.operationId, ids };
  });
}

/**
 * Adds `x-codeSamples` to every operation of the bundled `doc` (in place) and returns the variables the curl
 * samples read, sorted, each with what it holds.
 */
export function addCodeSamples(doc) {
  const { byPrefix, records } = familyVariables(doc);
  const variables = new Set();
  const all = operationsOf(doc);
  for (const { path, method, operation } of all) {
    const where = `${method.toUpperCase()} ${path} (${operation.operationId})`;
    if (!operation["x-interface-name"]) throw new Error(`${where} has no x-interface-name`);
    // The client's method takes the POST form's fields (it sends flat reads as GET); a GET sample shows the same call.
    const twin = all.find(
      (other) =>
        other.method === "post" && other.operation["x-interface-name"] === operation["x-interface-name"],
    );
    if (!twin) throw new Error(`${where}: no POST form for the TypeScript sample to call`);
    const curl = curlSample(doc, { path, method, operation }, where, byPrefix);
    for (const name of curl.used.values()) variables.add(name.replace(/_\d+$/, ""));
    operation["x-codeSamples"] = [
      { lang: "Shell", label: "curl", source: curl.source },
      {
        lang: "TypeScript",
        label: "TypeScript",
        source: typescriptSample(doc, twin.operation, operation, where),
      },
    ];
  }
  return [...variables].sort().map((name) => {
    const meaning = SAMPLE_VARIABLES[name] ?? (records.has(name) && `the id of ${records.get(name)}`);
    if (!meaning)
      throw new Error(`the samples read $${name}, which scripts/code-samples.mjs does not describe`);
    return { name, meaning };
  });
}
