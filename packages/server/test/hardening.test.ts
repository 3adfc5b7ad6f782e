// Input neither database can store, bodies that are not objects, oversized headers and content encodings:
// each answered with a typed error of the interface, the same on SQLite and PostgreSQL.
import { connect } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { loadSpec } from "@workapi/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "./harness.js";

/** Sends raw bytes and returns the status line and body of the answer. */
function rawRequest(
  url: string,
  request: string,
): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = text.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), headers: head, body });
    });
  });
}

describe.each(databases)("input hardening on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ["a NUL character", "n\u0000"],
    ["a lone high surrogate", "n\ud800"],
    ["a lone low surrogate", "\udc00n"],
  ])("refuses %s in a body string with invalid_field naming it", async (_what, name) => {
    const res = await server.call("POST", "/tags.create", { body: { name } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: "invalid_field", field_name: "name" });
    const tags = await server.call("GET", "/tags.list");
    expect(tags.body.tags).toEqual([]);
    expect(server.app.violations).toEqual([]);
  });

  it("names a nested field and an array item", async () => {
    const res = await server.call("POST", "/tags.list", { body: { name: ["ok", "b\u0000d"] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: "invalid_field", field_name: "name.1" });
  });

  it("refuses a NUL in a query parameter", async () => {
    const res = await server.call("GET", "/works.get?id=a%00b");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: "invalid_field", field_name: "id" });
  });

  it("keeps well-formed text outside the Basic Multilingual Plane", async () => {
    const res = await server.call("POST", "/tags.create", { body: { name: "launch \ud83d\ude80" } });
    expect(res.status).toBe(201);
    expect(res.body.tag.name).toBe("launch \ud83d\ude80");
  });

  it.each([
    ["null", "null", "null"],
    ["an array", "[]", "array"],
    ["a string", '"scopes"', "string"],
    ["a number", "7", "number"],
  ])("refuses %s as a required body", async (_what, raw, actual) => {
    const before = await server.call("GET", "/auth-tokens.list");
    const res = await server.call("POST", "/auth-tokens.create", {
      raw,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: "unexpected_json_type", field_name: "body", actual });
    const after = await server.call("GET", "/auth-tokens.list");
    expect(after.body.tokens.length).toBe(before.body.tokens.length);
  });

  it("still takes a missing body as {}", async () => {
    expect((await server.call("POST", "/tags.list")).status).toBe(200);
  });

  it.each([
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
  ])("decodes a %s body", async (encoding, encode) => {
    const body = encode(Buffer.from(JSON.stringify({ name: `encoded-${encoding}` })));
    const res = await fetch(`${server.url}/tags.create`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${server.adminToken}`,
        "content-type": "application/json",
        "content-encoding": encoding,
      },
      body,
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { tag: { name: string } }).tag.name).toBe(`encoded-${encoding}`);
  });

  it("answers a body that does not decode as its encoding with 400", async () => {
    const res = await server.call("POST", "/tags.create", {
      raw: JSON.stringify({ name: "plain" }),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: "bad_request" });
    expect(res.body.detail).toContain("gzip");
  });

  it("answers an unsupported content encoding with a typed 415", async () => {
    const res = await server.call("POST", "/tags.create", {
      raw: JSON.stringify({ name: "plain" }),
      headers: { "content-type": "application/json", "content-encoding": "compress" },
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ type: "invalid_content_type" });
    expect(res.body.detail).toContain("compress");
  });

  it("answers an oversized header block or URL with a typed 431", async () => {
    const long = "x".repeat(20_000);
    for (const request of [
      `GET /tags.list HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${long}\r\n\r\n`,
      `GET /tags.list?name=${long} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    ]) {
      const res = await rawRequest(server.url, request);
      expect(res.status).toBe(431);
      expect(res.headers.toLowerCase()).toContain("content-type: application/json");
      expect(JSON.parse(res.body)).toMatchObject({ type: "bad_request", message: expect.any(String) });
    }
  });
});

describe.each(databases)("long list filters on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server?.close();
  });

  // The bound is the contract's: the test reads it rather than repeating it.
  // biome-ignore lint/suspicious/noExplicitAny: the bundled contract is read as plain JSON
  const spec: any = loadSpec();
  const bound = spec.components.schemas.TagsListRequest.properties.name.maxItems as number;

  it("answers a filter at the contract's maxItems with the matches", async () => {
    const made = await server.call("POST", "/tags.create", { body: { name: "needle" } });
    expect(made.status).toBe(201);
    const names = Array.from({ length: bound }, (_, i) => `n${i}`);
    names[bound - 7] = "needle";
    const res = await server.call("POST", "/tags.list", { body: { name: names } });
    expect(res.status).toBe(200);
    expect(res.body.tags.map((tag: { name: string }) => tag.name)).toEqual(["needle"]);
  });

  it("refuses one value over the bound with a typed 400 naming the field", async () => {
    const names = Array.from({ length: bound + 1 }, (_, i) => `n${i}`);
    const res = await server.call("POST", "/tags.list", { body: { name: names } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: "value_not_permitted" });
    expect(res.body.field_name).toBe("name");
    expect(res.body.detail).toContain(String(bound));
    expect(server.app.violations).toEqual([]);
  });

  it("binds many full filters in one query whatever the total (each list is one parameter)", async () => {
    // Ten filters at the bound are 10,000 values: past SQLite's and PostgreSQL's per-statement limits if each
    // value were its own parameter.
    const ids = (prefix: string) => Array.from({ length: bound }, (_, i) => `${prefix}-${i}`);
    const body = {
      type: ["issue", "ticket"],
      applies_to_part: ids("PROD"),
      created_by: ids("DEVU"),
      modified_by: ids("DEVU"),
      owned_by: ids("DEVU"),
      reported_by: ids("DEVU"),
      external_ref: ids("ext"),
      state: ids("state"),
      tags: ids("TAG"),
      issue: { priority: ["p0", "p1", "p2", "p3"], rev_orgs: ids("REV") },
      ticket: { rev_org: ids("REV") },
    };
    const res = await server.call("POST", "/works.export", { body });
    expect(res.status).toBe(200);
    expect(res.body.works).toEqual([]);
    expect(server.app.violations).toEqual([]);
  });
});
