// Custom stages and stage diagrams through real HTTP, on every database: creation rules, reads, the
// single-cursor lists, diagram validation and updates.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "./harness.js";
import { createDiagram, createStage, ok, STATE } from "./ops-work-fixtures.js";

describe.each(databases)("stages on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("stages.custom.create / get", () => {
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

    it("answers 404 for an unknown stage", async () => {
      const res = await server.call("GET", "/stages.custom.get?id=STAGE-99999");
      expect(res.status).toBe(404);
      expect(res.body.type).toBe("not_found");
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

  describe("stage diagrams", () => {
    let a: { id: string; display_id: string };
    let b: { id: string; display_id: string };
    let c: { id: string; display_id: string };
    beforeAll(async () => {
      a = await createStage(server, "queued");
      b = await createStage(server, "in_review", "in_progress");
      c = await createStage(server, "shipped", "closed");
    });

    it("creates a diagram and gets it with both methods", async () => {
      const res = await server.call("POST", "/stage-diagrams.create", {
        body: {
          leaf_type: "ticket",
          name: "Ticket flow",
          stages: [
            { stage_id: a.id, is_start: true, transitions: [{ target_stage_id: b.display_id }] },
            { stage_id: b.display_id, transitions: [{ target_stage_id: c.id }, { target_stage_id: a.id }] },
            { stage_id: c.id, is_deprecated: true },
          ],
        },
      });
      expect(res.status).toBe(201);
      const diagram = res.body.stage_diagram;
      expect(diagram).toMatchObject({
        name: "Ticket flow",
        leaf_type: "ticket",
        is_default: false,
        is_custom_leaf_type: false,
        stages: [
          {
            stage: { id: a.id, display_id: a.display_id, name: "queued" },
            is_start: true,
            is_deprecated: false,
            transitions: [{ target_stage: { id: b.id, name: "in_review" } }],
          },
          {
            stage: { id: b.id },
            is_start: false,
            transitions: [{ target_stage: { id: c.id } }, { target_stage: { id: a.id } }],
          },
          { stage: { id: c.id }, is_deprecated: true, transitions: [] },
        ],
      });
      expect(diagram.display_id).toMatch(/^SD-\d+$/);
      const byGet = await server.call("GET", `/stage-diagrams.get?id=${diagram.display_id}`);
      expect(byGet.body).toEqual(res.body);
      const byPost = await server.call("POST", "/stage-diagrams.get", { body: { id: diagram.id } });
      expect(byPost.body).toEqual(res.body);
      expect((await server.call("GET", "/stage-diagrams.get?id=SD-99999")).status).toBe(404);
    });

    it("refuses stages and targets that do not exist or are not in the diagram, naming the field", async () => {
      const cases: Array<[unknown[], string, string]> = [
        [
          [{ stage_id: a.id, is_start: true }, { stage_id: "STAGE-99999" }],
          "invalid_id",
          "stages.1.stage_id",
        ],
        [
          [
            { stage_id: a.id, is_start: true },
            { stage_id: b.id },
            { stage_id: c.id, transitions: [{ target_stage_id: "STAGE-99999" }] },
          ],
          "invalid_id",
          "stages.2.transitions.0.target_stage_id",
        ],
        [
          [{ stage_id: a.id, is_start: true, transitions: [{ target_stage_id: c.id }] }, { stage_id: b.id }],
          "value_not_permitted",
          "stages.0.transitions.0.target_stage_id",
        ],
        [[{ stage_id: a.id }, { stage_id: b.id }], "value_not_permitted", "stages"],
        [
          [
            { stage_id: a.id, is_start: true },
            { stage_id: b.id, is_start: true },
          ],
          "value_not_permitted",
          "stages",
        ],
        [
          [{ stage_id: a.id, is_start: true }, { stage_id: a.display_id }],
          "value_not_permitted",
          "stages.1.stage_id",
        ],
        [
          [{ stage_id: a.id, is_start: true, is_deprecated: true }],
          "value_not_permitted",
          "stages.0.is_deprecated",
        ],
        [[], "value_not_permitted", "stages"],
      ];
      for (const [stages, type, field] of cases) {
        const res = await server.call("POST", "/stage-diagrams.create", {
          body: { leaf_type: "issue", name: "Broken", stages },
        });
        expect(res.status, field).toBe(400);
        expect(res.body, field).toMatchObject({ type, field_name: field });
      }
    });

    it("keeps one default diagram per leaf type", async () => {
      const first = await createDiagram(server, "task", [[a.id, []]], { is_default: true });
      const second = await createDiagram(server, "task", [[b.id, []]], { is_default: true });
      const reread = await server.call("POST", "/stage-diagrams.get", { body: { id: first.id } });
      expect(reread.body.stage_diagram.is_default).toBe(false);
      const current = await server.call("POST", "/stage-diagrams.get", { body: { id: second.id } });
      expect(current.body.stage_diagram.is_default).toBe(true);
    });

    it("updates the name and replaces the stages", async () => {
      const diagram = await createDiagram(server, "incident", [
        [a.id, [b.id]],
        [b.id, []],
      ]);
      const renamed = await server.call("POST", "/stage-diagrams.update", {
        body: { id: diagram.display_id, name: "Incident flow v2" },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body.stage_diagram).toMatchObject({ name: "Incident flow v2", object_version: 2 });
      expect(renamed.body.stage_diagram.stages).toHaveLength(2);
      const restaged = await server.call("POST", "/stage-diagrams.update", {
        body: {
          id: diagram.id,
          stages: [
            { stage_id: c.id, is_start: true, transitions: [{ target_stage_id: a.id }] },
            { stage_id: a.id },
          ],
        },
      });
      expect(restaged.status).toBe(200);
      expect(restaged.body.stage_diagram).toMatchObject({
        name: "Incident flow v2",
        leaf_type: "incident",
        stages: [
          { stage: { id: c.id }, is_start: true },
          { stage: { id: a.id }, is_start: false },
        ],
      });
      const invalid = await server.call("POST", "/stage-diagrams.update", {
        body: {
          id: diagram.id,
          stages: [{ stage_id: a.id, transitions: [{ target_stage_id: "STAGE-99999" }] }],
        },
      });
      expect(invalid.body).toMatchObject({
        type: "invalid_id",
        field_name: "stages.0.transitions.0.target_stage_id",
      });
      const unknown = await server.call("POST", "/stage-diagrams.update", {
        body: { id: "SD-99999", name: "x" },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.type).toBe("not_found");
    });

    it("needs the stage diagram scopes", async () => {
      const diagram = await createDiagram(server, "opportunity", [[a.id, []]]);
      const reader = await server.token(["stage_diagram:read"]);
      expect(
        (await server.call("POST", "/stage-diagrams.get", { token: reader, body: { id: diagram.id } }))
          .status,
      ).toBe(200);
      const update = await server.call("POST", "/stage-diagrams.update", {
        token: reader,
        body: { id: diagram.id, name: "nope" },
      });
      expect(update.status).toBe(403);
      const all = await server.call("POST", "/stage-diagrams.update", {
        token: await server.token(["stage_diagram:all"]),
        body: { id: diagram.id, name: "nope" },
      });
      // The interface gives stage-diagrams.update the write scope alone.
      expect(all.status).toBe(403);
      const writer = await server.call("POST", "/stage-diagrams.update", {
        token: await server.token(["stage_diagram:write"]),
        body: { id: diagram.id, name: "yes" },
      });
      expect(writer.status).toBe(200);
      const create = await server.call("POST", "/stage-diagrams.create", {
        token: reader,
        body: { leaf_type: "issue", name: "x", stages: [{ stage_id: a.id, is_start: true }] },
      });
      expect(create.status).toBe(403);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
