// Writes `x-codeSamples` into every operation of the bundled contract: a curl command and a TypeScript call
// with @workapi/client, built from the operation's examples. The bundle generator (scripts/generate-bundle.mjs)
// runs it on the bundle before the bundle is written, so the spec packages, the types and the docs all carry
// the samples.
//
// The curl samples are meant to run as shown. They read the server and the token from `$WORKAPI_URL` and
// `$WORKAPI_TOKEN`, and every record id in them from a shell variable named after the record (`$WORK_ID`,
// `$TAG_ID`...), because an example id names no record on the reader's server. SAMPLE_VARIABLES lists them
// all; the docs page explains them and the server's tests set them from a seeded server.
// Imported by path: the repository root does not depend on the workspace packages.
import { camelCase, deref, HTTP_METHODS } from "../packages/spec/index.js";

/** The variables the curl samples read, with what a reader sets them to. */
export const SAMPLE_VARIABLES = {
  WORKAPI_URL: "the server's address, for example `http://localhost:8080`",
  WORKAPI_TOKEN: "an access token (the admin token `pnpm start` prints, or one from `auth-tokens.create`)",
  FILE: "the path of a file to upload",
};

// Example ids are `<PREFIX>-<number>`; the prefix tells the kind of record an id names.
const ID_SHAPE = /^([A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*)-\d+$/;
const BY_PREFIX = {
  ACC: "ACCOUNT_ID",
  ART: "ARTICLE_ID",
  ARTIFACT: "ARTIFACT_ID",
  CAPL: "CAPABILITY_ID",
  CODE: "CODE_CHANGE_ID",
  CONV: "CONVERSATION_ID",
  DEVU: "DEV_USER_ID",
  DIAG: "STAGE_DIAGRAM_ID",
  ENH: "ENHANCEMENT_ID",
  FEAT: "FEATURE_ID",
  ISS: "ISSUE_ID",
  PROD: "PRODUCT_ID",
  REV: "REV_ORG_ID",
  REVU: "REV_USER_ID",
  "SCHED-FRAG": "ORG_SCHEDULE_FRAGMENT_ID",
  SLA: "SLA_ID",
  STAGE: "STAGE_ID",
  TAG: "TAG_ID",
  TKT: "TICKET_ID",
  TOKEN: "AUTH_TOKEN_ID",
  VISTA: "VISTA_ID",
};
// Id-shaped values that are no record ids (a custom object's own unique key), that name records every
// organization has under that id, or that refer to records the service has no operations for (groups,
// brands, channels, sync units and sync runs: a filter naming them is valid and simply matches nothing):
// they stay as written.
const LITERAL_PREFIXES = new Set([
  "BRAND",
  "CAMP",
  "CHAN",
  "GRP",
  "METRIC",
  "ROLE",
  "STATE",
  "SYNC",
  "SYNCH",
]);
const RECORDS = {
  ACCOUNT_ID: "an account",
  ARTICLE_ID: "an article",
  ARTIFACT_ID: "an artifact (from `artifacts.prepare`)",
  AUTH_TOKEN_ID: "an access token",
  CAPABILITY_ID: "a part of type capability",
  CODE_CHANGE_ID: "a code change",
  CONVERSATION_ID: "a conversation",
  DEV_USER_ID: "a user of your organization",
  ENHANCEMENT_ID: "a part of type enhancement",
  FEATURE_ID: "a part of type feature",
  ORG_SCHEDULE_FRAGMENT_ID: "an organization schedule fragment",
  ISSUE_ID: "a work item of type issue",
  PRODUCT_ID: "a part of type product",
  REV_ORG_ID: "a customer (Rev) organization",
  REV_USER_ID: "a customer (Rev) user",
  SLA_ID: "an SLA",
  STAGE_ID: "a custom stage",
  STAGE_DIAGRAM_ID: "a stage diagram",
  TAG_ID: "a tag",
  TICKET_ID: "a work item of type ticket",
  VISTA_ID: "a vista",
};

function variableFor(value, where) {
  if (typeof value !== "string") return undefined;
  const match = ID_SHAPE.exec(value);
  if (!match) return undefined;
  if (LITERAL_PREFIXES.has(match[1])) return undefined;
  const variable = BY_PREFIX[match[1]];
  if (!variable)
    throw new Error(`${where}: example id ${value} has a prefix scripts/code-samples.mjs does not know`);
  return variable;
}

// A marker no example contains (a private-use character, which JSON.stringify leaves as it is): where a
// variable goes, before the text is quoted for the shell.
const MARK = "\u{E000}";

/**
 * A copy of `value` with every record id replaced by a marked variable name. `used` maps each example id of
 * the sample to its variable: the second distinct id of a kind in one sample is `<NAME>_2`, and so on, so
 * that a sample naming two stages names two variables.
 */
function withVariables(value, where, used) {
  if (Array.isArray(value)) return value.map((item) => withVariables(item, where, used));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withVariables(item, where, used)]),
    );
  }
  const variable = variableFor(value, where);
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
function queryValue(value) {
  if (Array.isArray(value)) return value.map(queryValue).join(",");
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function parameterExample(parameter) {
  if (parameter.example !== undefined) return parameter.example;
  const first = Object.values(parameter.examples ?? {})[0];
  if (first?.value !== undefined) return first.value;
  return parameter.schema?.example;
}

function bodyOf(doc, operation) {
  const body = operation.requestBody && deref(doc, operation.requestBody).node;
  if (!body) return undefined;
  const [type, media] = Object.entries(body.content ?? {})[0] ?? [];
  if (!media) return undefined;
  const example = media.example ?? Object.values(media.examples ?? {})[0]?.value;
  return { type, example, schema: media.schema && deref(doc, media.schema).node };
}

function curlSample(doc, path, method, operation, where) {
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
      const value = withVariables(example, where, used);
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
  const example = withVariables(body.example, where, used);
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

/** Every operation of `doc` as { path, method, operation }, in document order. */
function operationsOf(doc) {
  const all = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS)
      if (item?.[method]) all.push({ path, method, operation: item[method] });
  }
  return all;
}

/**
 * Adds `x-codeSamples` to every operation of the bundled `doc` (in place) and returns the variables the curl
 * samples read, sorted, each with what it holds.
 */
export function addCodeSamples(doc) {
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
    const curl = curlSample(doc, path, method, operation, where);
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
    const meaning = SAMPLE_VARIABLES[name] ?? (RECORDS[name] && `the id of ${RECORDS[name]}`);
    if (!meaning)
      throw new Error(`the samples read $${name}, which scripts/code-samples.mjs does not describe`);
    return { name, meaning };
  });
}
