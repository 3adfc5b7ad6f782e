// Generates packages/client/src/generated/operations.ts from the bundled contract: the named-operation facade
// of @workapi/client (the names it is built from, and its types), the table of paginated operations
// (x-pagination) and the table of operations a client may retry (x-safe); and packages/client/src/generated/
// errors.ts, the error type each status stands for, from the contract's error responses. Registered in
// scripts/generators.mjs as the client generator, which reads the bundle generator's document.
//
// The facade has one method per x-interface-name, at the path of its camelCased segments
// (`observability.sessions.data.get` is `api.observability.sessions.data.get`, `org-schedules.list` is
// `api.orgSchedules.list`). A method POSTs to `/<name>`, except that a read (x-safe) whose fields are all flat
// is sent as GET with them in the query: a GET skips the body's parsing on the server and can be cached. So every
// read must have a GET twin that takes each flat field of its POST form as a query parameter of the same name
// and type (checked here); both twins answer alike, so the facade's types are the POST form's. The generator
// fails, naming the operation, when the contract breaks what the client relies on.

import { camelCase, HTTP_METHODS, operationsOf, resolveRef } from "@workapi/spec";
import { GENERATED_NOTICE } from "@workapi/spec/generated-notice";

export const CLIENT_OPERATIONS_FILE = "packages/client/src/generated/operations.ts";
export const CLIENT_ERRORS_FILE = "packages/client/src/generated/errors.ts";
// Names the client object already has: a resource may not take them.
const RESERVED = new Set(HTTP_METHODS.map((method) => method.toUpperCase()));
for (const name of ["request", "use", "eject", "paginate"]) RESERVED.add(name);

/** The one rule of @workapi/spec: `org-schedule-fragments` -> `orgScheduleFragments`. */
export { camelCase };

/** The properties of a success answer's JSON schema, when the schema lists them. */
function successProperties(doc, operation) {
  for (const status of ["200", "201"]) {
    const response = resolveRef(doc, operation.responses?.[status]);
    const schema = resolveRef(doc, response?.content?.["application/json"]?.schema);
    if (schema?.properties) return schema.properties;
  }
  return undefined;
}

/**
 * How an operation takes its body: undefined for JSON; for a `multipart/form-data` body, the names of its
 * file fields (binary: `contentMediaType` or `format: binary`), which the client lets be a Blob.
 */
function formFiles(doc, operation) {
  const content = resolveRef(doc, operation.requestBody)?.content ?? {};
  if (content["application/json"] || !content["multipart/form-data"]) return undefined;
  const schema = resolveRef(doc, content["multipart/form-data"].schema);
  return Object.entries(schema?.properties ?? {})
    .filter(([, property]) => {
      const field = resolveRef(doc, property);
      return field?.contentMediaType !== undefined || field?.format === "binary";
    })
    .map(([name]) => name)
    .sort();
}

/** A schema's JSON type(s), as one comparable string. */
const typeOf = (doc, schema) => [resolveRef(doc, schema)?.type ?? "any"].flat().sort().join("|");

const SCALARS = ["string", "integer", "number", "boolean"];

/**
 * Checks that a read's GET twin takes, as a query parameter of the same name and type, every flat field of its
 * POST form (a scalar, or a list of scalars, which the client sends comma-separated): the client sends a call
 * whose fields are all flat as that GET. Throws, naming the field, otherwise.
 */
function checkQueryTwin(doc, name, get, post) {
  const body = resolveRef(doc, resolveRef(doc, post.requestBody)?.content?.["application/json"]?.schema);
  const parameters = (get.parameters ?? []).map((entry) => resolveRef(doc, entry));
  for (const [field, property] of Object.entries(body?.properties ?? {})) {
    const type = typeOf(doc, property);
    const isList = type === "array";
    const items = isList ? typeOf(doc, resolveRef(doc, property).items) : undefined;
    if (!SCALARS.includes(isList ? items : type)) continue;
    const parameter = parameters.find((entry) => entry.in === "query" && entry.name === field);
    const schema = resolveRef(doc, parameter?.schema);
    const fits =
      parameter &&
      typeOf(doc, schema) === type &&
      (!isList ||
        (parameter.style === "form" && parameter.explode === false && typeOf(doc, schema.items) === items));
    if (!fits) {
      throw new Error(
        `GET /${name}: the client sends ${name}'s flat fields as GET, but ${field} is not a query parameter of type ${isList ? `${items}[] (form, comma-separated)` : type}`,
      );
    }
  }
}

/**
 * The operations of the bundled document by x-interface-name: `named` the POST form of each (the one the facade
 * calls), `queries` the GET form of each read, `safety` whether each name is x-safe. Throws, naming the
 * operation, when an operation's name, path or method is not what the client expects.
 */
function namedOperations(doc) {
  const named = new Map();
  const safety = new Map();
  const queries = new Map();
  for (const { path, method, operation } of operationsOf(doc)) {
    const where = `${method.toUpperCase()} ${path} (${operation.operationId})`;
    const name = operation["x-interface-name"];
    if (typeof name !== "string") throw new Error(`${where} has no x-interface-name`);
    // The client derives a request's name from its path, and the path of a name from the name.
    if (path !== `/${name}`) throw new Error(`${where}: the client expects the path /${name}`);
    if (method !== "get" && method !== "post")
      throw new Error(`${where}: the client sends only GET and POST`);
    const isSafe = operation["x-safe"] === true;
    if (safety.has(name) && safety.get(name) !== isSafe) {
      throw new Error(`${where}: the GET and POST forms of ${name} disagree on x-safe`);
    }
    safety.set(name, isSafe);
    if (method === "get") {
      queries.set(name, operation);
      continue;
    }
    if (method !== "post") continue;
    if (named.has(name)) throw new Error(`${where}: a second POST operation named ${name}`);
    named.set(name, { path, operationId: operation.operationId, operation });
  }
  checkPostForms(doc, named);
  return { named, safety, queries };
}

/** Every name must have a POST form: the facade sends nothing else. */
function checkPostForms(doc, named) {
  for (const { path, method, interfaceName: name } of operationsOf(doc)) {
    if (name && !named.has(name)) {
      throw new Error(
        `${method.toUpperCase()} ${path}: ${name} has no POST operation for the client to call`,
      );
    }
  }
}

/** An operation's x-pagination as the client's table keeps it, checked against its answer; or undefined. */
function paginationOf(doc, operationId, operation) {
  const paging = operation["x-pagination"];
  if (!paging) return undefined;
  if (typeof paging.items !== "string") throw new Error(`${operationId}: x-pagination needs items`);
  // The cursor fields only where they are not x-pagination's defaults, which the client assumes.
  const pagination = {
    items: paging.items,
    ...(paging.next_cursor && { next: paging.next_cursor }),
    ...(paging.prev_cursor && { prev: paging.prev_cursor }),
  };
  const properties = successProperties(doc, operation);
  for (const field of [pagination.items, pagination.next ?? "next_cursor"]) {
    if (properties && !(field in properties)) {
      throw new Error(`${operationId}: x-pagination names ${field}, which its answer does not have`);
    }
  }
  return pagination;
}

/** One named operation as the tables hold it. */
function operationEntry(doc, name, { path, operationId, operation }) {
  const pagination = paginationOf(doc, operationId, operation);
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*(\.[a-z][a-z0-9]*(-[a-z0-9]+)*)+$/.test(name)) {
    throw new Error(`${operationId}: x-interface-name ${name} is not <resource>.<verb> in lower-case words`);
  }
  return {
    name,
    path,
    operationId,
    pagination,
    form: formFiles(doc, operation),
    keys: name.split(".").map(camelCase),
    operation,
  };
}

/** The facade tree: a name may not be both a method and a group of methods, nor shadow the client's own. */
function facadeTree(operations) {
  const tree = {};
  for (const op of operations) {
    if (RESERVED.has(op.keys[0])) throw new Error(`${op.name}: '${op.keys[0]}' is a name the client uses`);
    let node = tree;
    op.keys.forEach((key, index) => {
      const last = index === op.keys.length - 1;
      const existing = node[key];
      if (last ? existing !== undefined : typeof existing === "string") {
        throw new Error(`${op.name}: facade path ${op.keys.join(".")} collides with another operation`);
      }
      if (last) node[key] = op.name;
      else node = node[key] ??= {};
    });
  }
  return tree;
}

/**
 * Reads the operations of the bundled document into the tables the client needs. Throws, naming the
 * operation, when the contract breaks an assumption the client relies on.
 */
export function clientTables(doc) {
  const { named, safety, queries } = namedOperations(doc);
  const operations = [...named.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, entry]) => operationEntry(doc, name, entry));
  const tree = facadeTree(operations);
  const safe = operations.filter((op) => safety.get(op.name)).map((op) => op.name);
  for (const op of operations.filter((entry) => safety.get(entry.name))) {
    if (!queries.has(op.name)) throw new Error(`${op.operationId}: the read ${op.name} has no GET form`);
    checkQueryTwin(doc, op.name, queries.get(op.name), op.operation);
  }
  return { operations, safe, tree };
}

const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

function treeType(node, byName, indent) {
  const pad = "  ".repeat(indent);
  const lines = Object.entries(node).map(([name, value]) => {
    if (typeof value !== "string") return `${pad}  ${key(name)}: ${treeType(value, byName, indent + 1)};`;
    const op = byName.get(value);
    const id = JSON.stringify(op.operationId);
    const files = op.form?.length ? op.form.map((file) => JSON.stringify(file)).join(" | ") : undefined;
    const type = op.pagination
      ? `PaginatedOperation<${id}, ${JSON.stringify(op.pagination.items)}, T>`
      : `Operation<${id}, T${files ? `, ${files}` : ""}>`;
    return `${pad}  /** \`${value}\`: POST ${op.path} (${op.operationId}). */\n${pad}  ${key(name)}: ${type};`;
  });
  return `{\n${lines.join("\n")}\n${pad}}`;
}

/** The operations by the segments of their names, each leaf as `operationTree` documents it. */
function operationTree(operations, safe) {
  const tree = {};
  for (const op of operations) {
    const segments = op.name.split(".");
    const last = segments.pop();
    let node = tree;
    for (const segment of segments) node = node[segment] ??= {};
    node[last] = safe.includes(op.name) ? (op.pagination ?? 1) : 0;
  }
  return tree;
}

/** A value as a one-line object literal, keys unquoted where they can be: `{ items: "tags" }`. */
const literal = (value) =>
  typeof value === "object"
    ? `{ ${Object.entries(value)
        .map(([name, entry]) => `${key(name)}: ${literal(entry)}`)
        .join(", ")} }`
    : JSON.stringify(value);

/** The contents of packages/client/src/generated/operations.ts. */
export function clientOperationsSource(doc) {
  const { operations, safe, tree } = clientTables(doc);
  const byName = new Map(operations.map((op) => [op.name, op]));
  const out = [
    `// ${GENERATED_NOTICE}`,
    "// The named operations of @workapi/client, from the x-interface-name, x-safe and x-pagination of each operation.",
    'import type { Operation, PaginatedOperation } from "../operation.js";',
    "",

    "/** The operationId of the POST form of each named operation: its body and answer types. */",
    "export interface OperationIds {",
    ...operations.map((op) => `  ${JSON.stringify(op.name)}: ${JSON.stringify(op.operationId)};`),
    "}",
    "",
    "/**",
    " * Every named operation, at the segments of its x-interface-name (`stages.custom.get` is",
    " * `stages: { custom: { get } }`): 0 for a write; 1 for a read (x-safe: the only operations a client may",
    " * repeat, and those it sends as GET when their fields are flat); for a paginated read (x-pagination), where",
    " * its answer keeps its entries, and its cursor fields where they are not `next_cursor` and `prev_cursor`.",
    " * One line per resource: the names' shared segments are written once, which keeps the client small.",
    " */",
    "export const operationTree = {",
    ...Object.entries(operationTree(operations, safe)).map(
      ([segment, node]) => `  ${key(segment)}: ${literal(node)},`,
    ),
    "} as const;",
    "",
    "/** The paginated operations and their page shapes. */",
    "export interface PaginatedOperations {",
    ...operations
      .filter((op) => op.pagination)
      .map((op) => `  ${JSON.stringify(op.name)}: ${literal(op.pagination)};`),
    "}",
    "",
    "/** The operations whose body is `multipart/form-data`: the facade sends their fields as a form. */",
    "export const formOperations: readonly string[] = [",
    ...operations.filter((op) => op.form).map((op) => `  ${JSON.stringify(op.name)},`),
    "];",
    "",
    "/** The name segments the facade spells otherwise, camelCased (`org-schedules` -> `orgSchedules`); every other segment is its own key. */",
    "export const facadeSegments: Readonly<Record<string, string>> = {",
    ...[...new Set(operations.flatMap((op) => op.name.split(".")))]
      .filter((segment) => camelCase(segment) !== segment)
      .sort()
      .map((segment) => `  ${JSON.stringify(segment)}: ${JSON.stringify(camelCase(segment))},`),
    "};",
    "",
    "/** The named-operation facade; `T` is true when calls throw an ApiError instead of answering `{ error }`. */",
    `export interface Facade<T extends boolean> ${treeType(tree, byName, 0)}`,
    "",
  ];
  return out.join("\n");
}

/** The first error type a body of the schema `node` can carry (its `type` enum's first value, or its const). */
function firstErrorType(doc, node) {
  const schema = resolveRef(doc, node);
  const variants = schema?.oneOf ?? schema?.anyOf;
  if (variants) return firstErrorType(doc, variants[0]);
  const type = schema?.properties?.type;
  return type?.enum?.[0] ?? type?.const;
}

/**
 * The error type each error status stands for: the first type of the body its error response carries (the
 * contract's error catalogue, spec/components/responses/, one response per status). Throws when the contract
 * gives one status two such types.
 */
export function errorTypesByStatus(doc) {
  const byStatus = new Map();
  for (const operation of operationsOf(doc)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (Number(status) < 400) continue;
      const schema = response?.content?.["application/json"]?.schema;
      const type = schema && firstErrorType(doc, schema);
      if (!type) continue;
      const known = byStatus.get(Number(status));
      if (known && known !== type)
        throw new Error(`the contract's ${status} answers stand for both ${known} and ${type}`);
      byStatus.set(Number(status), type);
    }
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The type the client gives a status the table leaves out (src/errors.ts): the class's own. */
export const fallbackType = (status) => (status >= 500 ? "service_unavailable" : "bad_request");

/**
 * The client's table of the error type each status stands for (an answer without an error body of its own).
 * A status whose type is its class's fallback is left out: the client's size budget counts every byte.
 */
export function clientErrorsSource(doc) {
  const entries = [...errorTypesByStatus(doc)].filter(([status, type]) => type !== fallbackType(status));
  return [
    `// ${GENERATED_NOTICE}`,
    "// The error type each error status of the contract stands for (the first type its error response's body",
    "// names), where it is not the fallback of its class: service_unavailable for 5xx, bad_request for 4xx.",
    'import type { ErrorType } from "@workapi/types";',
    "",
    "export const TYPE_BY_STATUS: Readonly<Record<number, ErrorType>> = {",
    ...entries.map(([status, type]) => `  ${status}: ${JSON.stringify(type)},`),
    "};",
    "",
  ].join("\n");
}

/** The files the client generator writes from the bundled `doc`: { path: contents }. */
export function generateClient(doc) {
  return {
    [CLIENT_OPERATIONS_FILE]: clientOperationsSource(doc),
    [CLIENT_ERRORS_FILE]: clientErrorsSource(doc),
  };
}

export const clientGenerator = {
  name: "client",
  inputs: ["bundle"],
  outputs: [CLIENT_OPERATIONS_FILE, CLIENT_ERRORS_FILE],
  generate: ({ inputs }) => ({ files: generateClient(inputs.bundle.doc) }),
};
