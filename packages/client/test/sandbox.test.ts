// createSandbox (@workapi/client/sandbox) against the real reference server: sandboxes made in parallel, each
// client seeing its own records only; the journal through requests(); dispose(); a retry driven by
// `Prefer: code=429`.
import { createClient, type Middleware } from "@workapi/client";
import { createSandbox } from "@workapi/client/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, type ReferenceServer, startReferenceServer } from "./support/reference-server.js";

describe.each(databases)("createSandbox on %s", (database) => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer(database);
  });
  afterAll(async () => {
    expect(server.app.violations).toEqual([]);
    await server?.close();
  });

  it("gives each of several parallel clients a sandbox of its own, with its journal, until dispose()", async () => {
    const clients = await Promise.all(
      [0, 1, 2, 3].map((i) => createSandbox({ baseUrl: server.url, token: server.token, name: `file ${i}` })),
    );
    await Promise.all(clients.map((api, i) => api.tags.create({ name: `tag-${i}` })));
    for (const [i, api] of clients.entries()) {
      const { data } = await api.tags.list();
      expect(data?.tags.map((tag) => tag.name)).toEqual([`tag-${i}`]);
      const sent = await api.requests();
      expect(sent.map((r) => [r.operation, r.status])).toEqual([
        ["tags.create", 201],
        ["tags.list", 200],
      ]);
      expect(sent[0]?.body).toEqual({ name: `tag-${i}` });
    }
    const [first] = clients;
    if (!first) throw new Error("no sandbox");
    await first.dispose();
    const { error, response } = await first.tags.list();
    expect(response.status).toBe(401);
    expect(error?.type).toBe("unauthenticated");
    const operator = createClient({ baseUrl: server.url, token: server.token });
    const listed = await operator.sandboxes.list.all();
    expect(listed.data?.map((s) => s.id)).not.toContain(first.sandbox.id);
    await Promise.all(clients.slice(1).map((api) => api.dispose()));
  });

  it("retries a 429 the sandbox answers for Prefer: code=429, after its Retry-After", async () => {
    const api = await createSandbox({ baseUrl: server.url, token: server.token });
    const throttleFirst: Middleware = {
      onRequest({ request, attempt }) {
        if (attempt === 1) request.headers.set("prefer", "code=429, retry-after=1");
        return request;
      },
    };
    api.use(throttleFirst);
    const started = Date.now();
    const { response } = await api.tags.list({}, { retry: { maxRetries: 2 } });
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    // Without retries, the 429 is the answer, with the contract's body.
    const { error } = await api.tags.list({}, { retry: false });
    expect(error?.type).toBe("too_many_requests");
    api.eject(throttleFirst);
    const sent = await api.requests({ operation: "tags.list" });
    expect(sent.map((r) => r.status)).toEqual([429, 200, 429]);
    await api.dispose();
  });
});
