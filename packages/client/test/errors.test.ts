// Typed errors: the `{ error }` of an error answer is the interface's error body, told apart by `type`;
// throwOnError and unwrap() throw an ApiError; an answer without a usable body still gets a typed one.
import { ApiError, createClient, unwrap } from "@workapi/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { errorBody, type ScriptedServer, startScriptedServer } from "./support/scripted-server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** The ApiError a call rejects with (fails the test when it does not). */
async function rejection(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => expect.unreachable("the call should have thrown"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const tooMany = {
  status: 429,
  headers: { "x-request-id": "req-429", "retry-after": "42" },
  body: errorBody("too_many_requests", { retry_after: 42 }),
};

describe("the error of an answer", () => {
  it("is the typed body, narrowed by type", async () => {
    server.route("/tags.list", () => tooMany);
    const api = createClient({ baseUrl: server.url, token: "t" });
    const { data, error, response } = await api.tags.list();
    expect(data).toBeUndefined();
    expect(response.status).toBe(429);
    if (error?.type === "too_many_requests") {
      expect(error.retry_after).toBe(42);
    } else {
      expect.unreachable("a 429 is too_many_requests");
    }
  });

  it("keeps the fields of a 400's type", async () => {
    server.route("/works.export", () => ({
      status: 400,
      body: errorBody("invalid_enum_value", { field_name: "type", value: "epic", allowed_values: ["issue"] }),
    }));
    const api = createClient({ baseUrl: server.url, token: "t" });
    const { error } = await api.works.export({ first: 1 });
    expect(error).toMatchObject({ type: "invalid_enum_value", field_name: "type", value: "epic" });
  });
});

describe("ApiError", () => {
  it("is thrown with throwOnError on the call, with status, body, requestId and response", async () => {
    server.route("/tags.list", () => tooMany);
    const api = createClient({ baseUrl: server.url, token: "t" });
    const error = await api.tags.list({}, { throwOnError: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    const apiError = error as ApiError;
    expect(apiError.name).toBe("ApiError");
    expect(apiError.status).toBe(429);
    expect(apiError.requestId).toBe("req-429");
    expect(apiError.body).toEqual(tooMany.body);
    expect(apiError.response.status).toBe(429);
    expect(apiError.message).toBe("429 too_many_requests: A scripted too_many_requests.");
  });

  it("is thrown with throwOnError on the client, also by the openapi-fetch methods", async () => {
    server.route("/code-changes.get", () => ({ status: 404, body: errorBody("not_found") }));
    const api = createClient({ baseUrl: server.url, token: "t", throwOnError: true });
    await expect(api.codeChanges.get({ id: "CC-1" })).rejects.toMatchObject({ status: 404 });
    await expect(api.GET("/code-changes.get", { params: { query: { id: "CC-1" } } })).rejects.toBeInstanceOf(
      ApiError,
    );
    // A call may still ask for the answer instead.
    const { error } = await api.codeChanges.get({ id: "CC-1" }, { throwOnError: false });
    expect(error?.type).toBe("not_found");
  });

  it("is what unwrap() throws; unwrap() answers the data of a success", async () => {
    server.route("/tags.list", (_, attempt) => (attempt === 1 ? { body: { tags: [] } } : tooMany));
    const api = createClient({ baseUrl: server.url, token: "t" });
    expect(unwrap(await api.tags.list())).toEqual({ tags: [] });
    const error = await api.tags
      .list()
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body.type).toBe("too_many_requests");
  });

  it("has no requestId when the answer has no x-request-id", async () => {
    server.route("/tags.list", () => ({ status: 403, body: errorBody("forbidden") }));
    const api = createClient({ baseUrl: server.url, token: "t" });
    const error = await rejection(api.tags.list({}, { throwOnError: true }));
    expect(error.requestId).toBeUndefined();
  });
});

describe("an answer without a usable error body", () => {
  it.each([
    [503, "text/html", "<html><body>Bad gateway day</body></html>", "service_unavailable"],
    [502, "text/plain", "upstream connect error", "service_unavailable"],
    [504, "text/plain", "", "service_unavailable"],
    [500, "text/plain", "panic", "internal_error"],
    [400, "application/json", "{not json", "bad_request"],
    [401, "application/json", "", "unauthenticated"],
    [403, "application/json", '{"error":"nope"}', "forbidden"],
    [404, "text/plain", "Cannot POST", "not_found"],
    [409, "text/plain", "", "conflict"],
    [413, "text/html", "<h1>413 Request Entity Too Large</h1>", "request_entity_too_large"],
    [415, "text/plain", "", "invalid_content_type"],
    [429, "text/plain", "slow down", "too_many_requests"],
    [431, "text/plain", "", "bad_request"],
    [418, "text/plain", "teapot", "bad_request"],
  ])("%i with %s %j becomes %s", async (status, contentType, text, type) => {
    server.route("/tags.list", () => ({
      status,
      headers: { "content-type": contentType, "x-request-id": "req-1", "retry-after": "7" },
      body: text,
    }));
    const api = createClient({ baseUrl: server.url, token: "t" });
    const { error, response } = await api.tags.list();
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(error).toMatchObject({ type, message: expect.stringContaining(String(status)) });
    expect(error?.detail).toBe(text.trim() || "The answer had no error body.");
    if (type === "too_many_requests") expect(error).toMatchObject({ retry_after: 7 });
    if (type === "internal_error") expect(error).toMatchObject({ reference_id: "req-1" });
    if (type === "request_entity_too_large") expect(error).toMatchObject({ max_bytes: 0 });

    const thrown = await rejection(api.tags.list({}, { throwOnError: true }));
    expect(thrown.body.type).toBe(type);
    expect(thrown.requestId).toBe("req-1");
  });

  it("is typed for the openapi-fetch methods too", async () => {
    server.route("/tags.list", () => ({
      status: 503,
      headers: { "content-type": "text/html" },
      body: "<p>down</p>",
    }));
    const api = createClient({ baseUrl: server.url, token: "t" });
    const { error } = await api.GET("/tags.list");
    expect(error?.type).toBe("service_unavailable");
  });

  it("unwrap() turns a result from elsewhere with a text error into an ApiError of the right type", () => {
    const response = new Response("oops", { status: 503 });
    expect(() => unwrap({ error: "oops", response })).toThrow(
      expect.objectContaining({
        status: 503,
        body: expect.objectContaining({ type: "service_unavailable" }),
      }),
    );
  });
});
