// tags.test.ts: Vitest runs test files in parallel, each in a sandbox of its own (an organization nobody else
// writes to). WORKAPI_ADMIN_TOKEN is the server's first admin token, or one holding `sandbox:admin`.
import { createSandbox, type SandboxClient } from "@workapi/client/sandbox";
import { afterAll, beforeAll, expect, it } from "vitest";

let api: SandboxClient;
beforeAll(async () => {
  api = await createSandbox({
    baseUrl: process.env.WORKAPI_URL ?? "http://localhost:8080",
    token: process.env.WORKAPI_ADMIN_TOKEN ?? "",
    seed: true, // the demo data set: 300 works, parts, tags...
    name: "tags.test.ts",
  });
});
afterAll(() => api.dispose()); // the sandbox and every record of it are gone; its token answers 401

it("sees its own tags only", async () => {
  await api.tags.create({ name: "mine" });
  const { data } = await api.tags.list({ name: ["mine"] });
  expect(data?.tags).toHaveLength(1);
  // The journal: what this file's client actually sent, oldest first (never the token).
  const sent = await api.requests({ operation: "tags.create" });
  expect(sent.map((request) => request.body)).toEqual([{ name: "mine" }]);
});
