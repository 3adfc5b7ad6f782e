// tags.test.ts: Vitest runs test files in parallel, each in a sandbox of its own (an organization nobody else
// writes to), on the stand-in the global setup started (or any server: its URL and a token holding
// `sandbox:admin`).
import { createSandbox, type SandboxClient } from "@workapi/client/sandbox";
import { afterAll, beforeAll, expect, inject, it } from "vitest";

let api: SandboxClient;
beforeAll(async () => {
  const { url, token } = inject("workapi");
  api = await createSandbox({
    baseUrl: url,
    token,
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
