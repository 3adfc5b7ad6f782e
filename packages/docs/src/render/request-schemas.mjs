// The schemas the console checks requests with (./request-validators.mjs compiles them), apart from Ajv: the
// docs generator reads them to know whether the last compiled checks still hold without loading the compiler.
import { operationsOf } from "@workapi/spec";

/** The request schemas of `doc` by operationId: { bodies, queries }, as the server validates requests. */
export function requestSchemas(doc) {
  const bodies = {};
  const queries = {};
  for (const { method, operationId, parameters, requestBody } of operationsOf(doc)) {
    if (method === "get") {
      const inQuery = parameters.filter((p) => p.in === "query");
      queries[operationId] = {
        type: "object",
        additionalProperties: false,
        required: inQuery.filter((p) => p.required).map((p) => p.name),
        properties: Object.fromEntries(inQuery.map((p) => [p.name, p.schema])),
      };
    } else if (requestBody) {
      // Only JSON bodies: the console sends no multipart body (file uploads are the curl sample's).
      const schema = requestBody.content?.["application/json"]?.schema;
      if (schema) bodies[operationId] = schema;
    }
  }
  return { bodies, queries };
}
