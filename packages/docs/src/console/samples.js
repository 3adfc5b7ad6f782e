// The console's code samples (part of the docs page's script): the curl command and the TypeScript call of
// exactly what the console would send, rewritten as the reader types, in the forms the page's static samples
// take (@workapi/spec's scripts/code-samples.mjs writes those from the contract's examples). The token is never
// written out: the samples read it from $WORKAPI_TOKEN.
const shell = (text) => `'${String(text).replaceAll("'", "'\\''")}'`;

/** A query parameter's value as the server reads it: arrays comma-separated, objects as JSON. */
export const queryValue = (value) => {
  if (Array.isArray(value)) return value.map(queryValue).join(",");
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
};

/** The query pairs of `params` (name -> value) for `operation`: exploded arrays repeat their name. */
export const queryPairs = (operation, params) => {
  const pairs = [];
  for (const parameter of operation.params) {
    const value = params[parameter.name];
    if (parameter.in !== "query" || value === undefined) continue;
    if (Array.isArray(value) && parameter.explode)
      for (const item of value) pairs.push([parameter.name, queryValue(item)]);
    else pairs.push([parameter.name, queryValue(value)]);
  }
  return pairs;
};

export const curl = (operation, base, pairs, body) => {
  const url = `${base.replace(/\/+$/, "")}${operation.path}`;
  const lines = [
    `curl ${operation.method === "get" ? "-G " : ""}${shell(url)}`,
    `-H "Authorization: Bearer $WORKAPI_TOKEN"`,
  ];
  for (const [name, value] of pairs) lines.push(`--data-urlencode ${shell(`${name}=${value}`)}`);
  if (operation.method !== "get" && body !== undefined) {
    lines.push(
      `-H "Content-Type: application/json"`,
      `--data-binary ${shell(JSON.stringify(body, null, 2))}`,
    );
  } else if (operation.method !== "get") {
    lines.push("-X POST");
  }
  return lines.join(" \\\n  ");
};

/** A JavaScript literal of a JSON value, the keys that need no quotes left bare. */
function literal(value, indent = "") {
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object"))
      return `[${value.map((item) => literal(item)).join(", ")}]`;
    const inner = `${indent}  `;
    return `[\n${value.map((item) => `${inner}${literal(item, inner)}`).join(",\n")},\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (!entries.length) return "{}";
    const inner = `${indent}  `;
    const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
    return `{\n${entries.map(([name, item]) => `${inner}${key(name)}: ${literal(item, inner)}`).join(",\n")},\n${indent}}`;
  }
  return JSON.stringify(value);
}

export const typescript = (operation, base, input) =>
  [
    `import { createClient } from "@workapi/client";`,
    "",
    `const api = createClient({ baseUrl: ${JSON.stringify(base.replace(/\/+$/, ""))}, token: process.env.WORKAPI_TOKEN ?? "" });`,
    `const { data, error } = await ${operation.call}(${literal(input ?? {})});`,
    "console.log(error ?? data);",
  ].join("\n");
