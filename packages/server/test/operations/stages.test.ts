// Custom stages (stages.custom.*) through real HTTP, on every database: creation rules, reads and the
// single-cursor lists of custom stages and stage diagrams.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";
import { createStage, ok, STATE } from "../record-builders.js";

describe.each(databases)("custom stages on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("stages.custom.create / get", () => {
    describe("stages.custom.create", () => {
      it("creates a stage in a built-in state and gets it with both methods", async () => {
        const res = await server.call("POST", "/stages.custom.create", {
          body: { name: "triage", ordinal: 10, state: STATE.open },
        });
        expect(res.status).toBe(201);
        const stage = res.body.custom_stage;
        expect(stage).toMatchObject({
          name: "triage",
          ordinal: 10,
          state: { display_id: STATE.open, name: "open", is_final: false },
          object_version: 1,
        });
        expect(stage.display_id).toMatch(/^STAGE-\d+$/);
        const closed = await createStage(server, "resolved", "closed", 90);
        const fetched = await server.call("GET", `/stages.custom.get?id=${closed.display_id}`);
        expect(fetched.status).toBe(200);
        expect(fetched.body.custom_stage).toMatchObject({
          name: "resolved",
          state: { name: "closed", is_final: true },
        });
        const byPost = await server.call("POST", "/stages.custom.get", { body: { id: closed.id } });
        expect(byPost.body).toEqual(fetched.body);
        // The state may also be named by its full id.
        const byStateId = await ok(server, "/stages.custom.create", {
          name: "working",
          ordinal: 50,
          state: stage.state.id,
        });
        expect(byStateId.custom_stage.state.name).toBe("open");
      });

      it("refuses an unknown state, and a name another stage has", async () => {
        const unknown = await server.call("POST", "/stages.custom.create", {
          body: { name: "limbo", ordinal: 1, state: "STATE-999" },
        });
        expect(unknown.status).toBe(400);
        expect(unknown.body).toMatchObject({ type: "invalid_id", field_name: "state" });
        await createStage(server, "unique-name");
        const twice = await server.call("POST", "/stages.custom.create", {
          body: { name: "unique-name", ordinal: 1, state: STATE.open },
        });
        expect(twice.status).toBe(400);
        expect(twice.body).toMatchObject({ type: "value_not_permitted", field_name: "name" });
        const negative = await server.call("POST", "/stages.custom.create", {
          body: { name: "negative", ordinal: -1, state: STATE.open },
        });
        expect(negative.body).toMatchObject({ type: "value_not_permitted", field_name: "ordinal" });
      });
    });

    describe("stages.custom.get", () => {
      it("answers 404 for an unknown stage", async () => {
        const res = await server.call("GET", "/stages.custom.get?id=STAGE-99999");
        expect(res.status).toBe(404);
        expect(res.body.type).toBe("not_found");
      });
    });

    it("needs the stage scopes", async () => {
      const reader = await server.token(["stage:read"]);
      const write = await server.call("POST", "/stages.custom.create", {
        token: reader,
        body: { name: "by-reader", ordinal: 1, state: STATE.open },
      });
      expect(write.status).toBe(403);
      const writer = await server.token(["stage:write"]);
      const made = await server.call("POST", "/stages.custom.create", {
        token: writer,
        body: { name: "by-writer", ordinal: 1, state: STATE.open },
      });
      expect(made.status).toBe(201);
      const read = await server.call("POST", "/stages.custom.get", {
        token: reader,
        body: { id: made.body.custom_stage.id },
      });
      expect(read.status).toBe(200);
      const none = await server.call("POST", "/stages.custom.get", {
        token: await server.token(["stage_diagram:read"]),
        body: { id: made.body.custom_stage.id },
      });
      expect(none.status).toBe(403);
    });
  });

  describe("stages.custom.list and stage-diagrams.list", () => {
    let listServer: TestServer;
    beforeAll(async () => {
      listServer = await startTestServer(database);
      for (let i = 0; i < 7; i++) await createStage(listServer, `stage-${i}`, "open", 100 - i);
    });
    afterAll(async () => {
      expect(listServer.app.violations).toEqual([]);
      await listServer.close();
    });

    const walk = async (path: string, mode: "after" | "before") => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const res = await listServer.call("POST", path, {
          body: { limit: 3, mode, ...(cursor ? { cursor } : {}) },
        });
        expect(res.status).toBe(200);
        expect(Object.keys(res.body).every((key) => key === "result" || key === "cursor")).toBe(true);
        const names = res.body.result.map((item: { name: string }) => item.name);
        if (mode === "after") seen.push(...names);
        else seen.unshift(...names);
        cursor = res.body.cursor;
        if (!cursor) return { seen, pages: pages + 1 };
      }
      throw new Error("the list did not end");
    };

    describe("stages.custom.list", () => {
      it("pages custom stages forwards and backwards with one cursor", async () => {
        const all = Array.from({ length: 7 }, (_, i) => `stage-${i}`);
        expect(await walk("/stages.custom.list", "after")).toEqual({ seen: all, pages: 3 });
        expect(await walk("/stages.custom.list", "before")).toEqual({ seen: all, pages: 3 });
        const byOrdinal = await listServer.call("GET", "/stages.custom.list?sort_by=ordinal:asc&limit=2");
        expect(byOrdinal.body.result.map((item: { name: string }) => item.name)).toEqual([
          "stage-6",
          "stage-5",
        ]);
        expect(byOrdinal.body.cursor).toEqual(expect.any(String));
      });
    });

    describe("stage-diagrams.list", () => {
      it("pages stage diagrams the same way", async () => {
        const stage = await listServer.call("POST", "/stages.custom.list", { body: { limit: 1 } });
        const id = stage.body.result[0].id;
        for (let i = 0; i < 4; i++) {
          await ok(listServer, "/stage-diagrams.create", {
            leaf_type: `type_${i}`,
            name: `diagram-${i}`,
            is_custom_leaf_type: true,
            stages: [{ stage_id: id, is_start: true }],
          });
        }
        const all = ["diagram-0", "diagram-1", "diagram-2", "diagram-3"];
        expect(await walk("/stage-diagrams.list", "after")).toEqual({ seen: all, pages: 2 });
        expect(await walk("/stage-diagrams.list", "before")).toEqual({ seen: all, pages: 2 });
        const sorted = await listServer.call("POST", "/stage-diagrams.list", {
          body: { sort_by: ["name:desc"] },
        });
        expect(sorted.body.result.map((item: { name: string }) => item.name)).toEqual([...all].reverse());
        expect(sorted.body.cursor).toBeUndefined();
      });
    });
  });
});
