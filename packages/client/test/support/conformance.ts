// What the client does against any server that speaks the interface: auth, typed errors and pagination.
// Run against the scripted server (conformance.test.ts) and against the reference server on every database
// (reference-server.test.ts).
import { ApiError, createClient } from "@workapi/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entries } from "./answers.js";
import type { Target } from "./target.js";

export function describeConformance(name: string, start: () => Promise<Target>): void {
  describe(`the client against ${name}`, () => {
    let target: Target;
    beforeAll(async () => {
      target = await start();
    });
    afterAll(() => target?.close());
    const api = () => createClient({ baseUrl: target.baseUrl, token: target.token, retry: true });

    it("lists tags with the token", async () => {
      const { data, error } = await api().tags.list({ limit: 5 });
      expect(error).toBeUndefined();
      expect(data?.tags.length).toBeGreaterThan(0);
      expect(data?.tags.length).toBeLessThanOrEqual(5);
    });

    it("answers a bad token with a typed 401", async () => {
      const bad = createClient({ baseUrl: target.baseUrl, token: "not-a-token" });
      const error = await bad.tags.list({}, { throwOnError: true }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(401);
      expect(["unauthenticated", "token_expired", "token_revoked"]).toContain((error as ApiError).body.type);
    });

    it("answers an unknown field with a typed 400", async () => {
      const { error, response } = await api().tags.list({ colour: "red" } as never);
      expect(response.status).toBe(400);
      expect(error?.type).toEqual(expect.any(String));
      expect(error?.detail).toContain("colour");
    });

    it("pages through every tag in both directions", async () => {
      const after = await entries(api().tags.list.all({ limit: 37 }));
      expect(after.length).toBe(target.tags);
      expect(new Set(after.map((t) => t.id)).size).toBe(target.tags);
      const before = await entries(api().tags.list.all({ limit: 37 }, { mode: "before" }));
      expect(new Set(before.map((t) => t.id))).toEqual(new Set(after.map((t) => t.id)));
      const some = await entries(api().tags.list.all({ limit: 37 }, { max: 50 }));
      expect(some.map((t) => t.id)).toEqual(after.slice(0, 50).map((t) => t.id));
    });
  });
}
