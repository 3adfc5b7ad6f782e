// Builds the two documents of a rule's `given` shorthand: a request or response body schema, a query
// parameter, the operation `POST /things`, or overlays of whole documents.
import type { Json } from "./types.js";

const skeleton = (): Json => ({
  openapi: "3.1.0",
  info: { title: "given", version: "1.0.0" },
  paths: { "/things": { post: { operationId: "things.create", responses: { 200: { description: "ok" } } } } },
  components: {
    schemas: { A: { type: "object", properties: { kind: { type: "string" } } } },
    securitySchemes: {
      key: { type: "apiKey", in: "header", name: "k" },
      oauth: {
        type: "oauth2",
        flows: {
          clientCredentials: { tokenUrl: "https://auth.example/token", scopes: { read: "r", write: "w" } },
        },
      },
    },
  },
});

function overlay(target: Json, extra: Json): Json {
  for (const [key, value] of Object.entries(extra)) {
    if (
      value &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      target[key] &&
      typeof target[key] === "object"
    ) {
      overlay(target[key], value);
    } else target[key] = value;
  }
  return target;
}

function side(given: Json, index: 0 | 1): Json {
  const doc = skeleton();
  const op = doc.paths["/things"].post;
  if (given.request) {
    op.requestBody = { required: true, content: { "application/json": { schema: given.request[index] } } };
  }
  if (given.response) {
    op.responses[200] = {
      description: "ok",
      content: { "application/json": { schema: given.response[index] } },
    };
  }
  if (given.parameter) {
    op.parameters = given.parameter[index] === undefined ? [] : [given.parameter[index]];
  }
  if (given.operation) {
    if (given.operation[index] === undefined)
      doc.paths["/things"] = { get: { responses: { 200: { description: "ok" } } } };
    else doc.paths["/things"].post = { operationId: "things.create", ...given.operation[index] };
  }
  if (given.document) overlay(doc, structuredClone(given.document[index]));
  return doc;
}

/** The base and head documents a `given` shorthand stands for. */
export function documentsOf(given: Json): [Json, Json] {
  return [side(given, 0), side(given, 1)];
}
