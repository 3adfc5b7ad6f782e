// A retry test driven by the server: in a sandbox, `Prefer: code=429` answers the operation's documented
// 429 (with Retry-After; `retry-after=<s>` sets it) and changes nothing. Here only the first attempt asks for it.
import type { Middleware } from "@workapi/client";
import type { SandboxClient } from "@workapi/client/sandbox";
import { expect, it } from "vitest";

declare const api: SandboxClient; // made in beforeAll, as in the suite above

it("retries a 429 after Retry-After, then succeeds", async () => {
  const throttleFirst: Middleware = {
    onRequest({ request, attempt }) {
      if (attempt === 1) request.headers.set("prefer", "code=429, retry-after=1");
      return request;
    },
  };
  api.use(throttleFirst);
  const { data, response } = await api.tags.list({}, { retry: { maxRetries: 2 } });
  api.eject(throttleFirst);
  expect(response.status).toBe(200);
  expect(data?.tags).toBeDefined();
  const sent = await api.requests({ operation: "tags.list" });
  expect(sent.map((request) => request.status).slice(-2)).toEqual([429, 200]);
});
