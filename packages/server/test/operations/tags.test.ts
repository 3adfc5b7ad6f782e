// tags.create through real HTTP: shapes, uniqueness (409) and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

describe.each(databases)("tags on %s", (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("tags.create", () => {
    it("creates a tag, and refuses a second one with the same name with 409", async () => {
      const res = await server.post("/tags.create", {
        name: "priority",
        description: "How urgent it is.",
        allowed_values: ["low", "high"],
        style_new: { color: "#d9534f" },
      });
      expect(res.status).toBe(201);
      expect(res.body.tag).toMatchObject({
        name: "priority",
        description: "How urgent it is.",
        allowed_values: ["low", "high"],
        style_new: { color: "#d9534f" },
      });
      expect(res.body.tag.display_id).toMatch(/^TAG-\d+$/);
      const plain = await server.post("/tags.create", { name: "plain" });
      expect(plain.body.tag.allowed_values).toEqual([]);
      const again = await server.post("/tags.create", { name: "priority" });
      expect(again.status).toBe(409);
      expect(again.body.type).toBe("conflict");
      const listed = await server.call("GET", "/tags.list?name=priority");
      expect(listed.body.tags).toHaveLength(1);
    });

    it("validates the body and needs tag:write or tag:all", async () => {
      expect((await server.post("/tags.create", { name: "" })).status).toBe(400);
      expect((await server.post("/tags.create", { name: "dup", allowed_values: ["a", "a"] })).status).toBe(
        400,
      );
      expect(
        (await server.post("/tags.create", { name: "t1" }, await server.token(["tag:write"]))).status,
      ).toBe(201);
      expect(
        (await server.post("/tags.create", { name: "t2" }, await server.token(["tag:all"]))).status,
      ).toBe(201);
      expect(
        (await server.post("/tags.create", { name: "t3" }, await server.token(["tag:read"]))).status,
      ).toBe(403);
    });
  });

  describe("tags.list", () => {
    it("lists tags by name with either method, sorted and paged with a cursor", async () => {
      for (const name of ["list-a", "list-b", "list-c"]) await server.post("/tags.create", { name });
      const byName = await server.call("GET", "/tags.list?name=list-a,list-c&sort_by=name:desc");
      expect(byName.status).toBe(200);
      expect(byName.body.tags.map((tag: { name: string }) => tag.name)).toEqual(["list-c", "list-a"]);
      const posted = await server.post("/tags.list", { name: ["list-a", "list-c"], sort_by: ["name:desc"] });
      expect(posted.body).toEqual(byName.body);
      const first = await server.call("GET", "/tags.list?name=list-a,list-b,list-c&limit=2&sort_by=name:asc");
      expect(first.body.tags.map((tag: { name: string }) => tag.name)).toEqual(["list-a", "list-b"]);
      const next = await server.call(
        "GET",
        `/tags.list?name=list-a,list-b,list-c&limit=2&sort_by=name:asc&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      );
      expect(next.body.tags.map((tag: { name: string }) => tag.name)).toEqual(["list-c"]);
      expect(next.body.next_cursor).toBeUndefined();
    });

    it("needs a tag scope, and refuses an unknown parameter", async () => {
      expect(
        (await server.call("GET", "/tags.list", { token: await server.token(["tag:read"]) })).status,
      ).toBe(200);
      const none = await server.call("GET", "/tags.list", { token: await server.token(["issue:read"]) });
      expect(none.status).toBe(403);
      expect((await server.call("GET", "/tags.list?colour=red")).status).toBe(400);
    });
  });
});
