// An operation the contract marks x-unreleased and the server has no handler for answers its documented
// examples (src/http/example-only.ts), saying so in a header; a released operation without a handler still stops
// the server at start. The contract of this file's thread is changed in place: accounts.get, both its forms,
// counts as unreleased and its handler is taken away.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { theContract } from "../src/core/contract.js";
import { EXAMPLE_ONLY_HEADER } from "../src/http/example-only.js";
import { startTestServer, type TestServer } from "./harness.js";

const NAME = "accounts.get";
const forms = () => theContract().operations.filter((operation) => operation.name === NAME);
// No handler: the executor's table leaves out a name whose handler is undefined.
const withoutHandler = { handlers: { [NAME]: undefined } };

describe("an example-only operation", () => {
  let server: TestServer;
  beforeAll(async () => {
    for (const operation of forms()) operation.unreleased = true;
    server = await startTestServer("sqlite", withoutHandler);
  });
  afterAll(async () => {
    await server.close();
    for (const operation of forms()) operation.unreleased = false;
  });

  const post = forms().find((operation) => operation.method === "POST");

  it("answers its success example, valid against its schema, marked example-only", async () => {
    const res = await server.post(`/${NAME}`, { id: "ACC-404" });
    expect(res.status).toBe(200);
    expect(res.headers.get(EXAMPLE_ONLY_HEADER)).toBe("true");
    expect(post?.checkResponse(200, res.body)).toBeUndefined();
    const get = await server.call("GET", `/${NAME}?id=ACC-1`);
    expect(get.status).toBe(200);
    expect(get.headers.get(EXAMPLE_ONLY_HEADER)).toBe("true");
    expect(get.body).toEqual(res.body);
  });

  it("answers the documented status a Prefer: code= asks for, outside sandboxes too", async () => {
    const res = await server.post(`/${NAME}`, { id: "ACC-1" }, undefined, { prefer: "code=404" });
    expect(res.status).toBe(404);
    expect(res.headers.get(EXAMPLE_ONLY_HEADER)).toBe("true");
    expect(post?.checkResponse(404, res.body)).toBeUndefined();
    const undocumented = await server.post(`/${NAME}`, { id: "ACC-1" }, undefined, { prefer: "code=418" });
    expect(undocumented.status).toBe(400);
    expect(undocumented.body).toMatchObject({ type: "value_not_permitted" });
  });

  it("checks the request as a handled operation would: credentials, then the input", async () => {
    expect((await server.call("POST", `/${NAME}`, { token: null, body: { id: "ACC-1" } })).status).toBe(401);
    const invalid = await server.post(`/${NAME}`, { id: 7 });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get(EXAMPLE_ONLY_HEADER)).toBeNull();
  });
});

describe("a released operation without a handler", () => {
  it("stops the server at start, naming the operation", async () => {
    await expect(startTestServer("sqlite", withoutHandler)).rejects.toThrow(
      /no handler for accounts\.get: .*x-unreleased/,
    );
  });
});
