// Stage diagrams through real HTTP, on every database: diagram validation, reads and updates.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";
import { createDiagram, createStage } from "../record-builders.js";

describe.each(databases)("stage diagrams on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
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

    describe("stage-diagrams.get", () => {
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
    });

    describe("stage-diagrams.create", () => {
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
            [
              { stage_id: a.id, is_start: true, transitions: [{ target_stage_id: c.id }] },
              { stage_id: b.id },
            ],
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
    });

    describe("stage-diagrams.update", () => {
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
