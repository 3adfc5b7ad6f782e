// Work items moving through stages, on every database: the stage a work starts in and the moves its
// stage diagram allows on update.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";
import { changeEvents, createFeature, createStage, createWork } from "../record-builders.js";

describe.each(databases)("works in stages on %s", (database) => {
  let server: TestServer;
  let feature: { id: string; display_id: string; name: string };
  beforeAll(async () => {
    server = await startTestServer(database);
    ({ feature } = await createFeature(server));
  });
  afterAll(async () => {
    await server.close();
  });

  describe("stages and the stage diagram", () => {
    let queued: { id: string; display_id: string };
    let working: { id: string; display_id: string };
    let done: { id: string; display_id: string };
    let retired: { id: string; display_id: string };
    beforeAll(async () => {
      queued = await createStage(server, "queued", "open", 10);
      working = await createStage(server, "working", "in_progress", 20);
      done = await createStage(server, "done", "closed", 30);
      retired = await createStage(server, "retired", "open", 40);
      // Tickets: queued -> working -> done -> working; retired is deprecated.
      const diagram = await server.call("POST", "/stage-diagrams.create", {
        body: {
          leaf_type: "ticket",
          name: "Ticket flow",
          stages: [
            { stage_id: queued.id, is_start: true, transitions: [{ target_stage_id: working.id }] },
            {
              stage_id: working.id,
              transitions: [{ target_stage_id: done.id }, { target_stage_id: retired.id }],
            },
            { stage_id: done.id, transitions: [{ target_stage_id: working.id }] },
            { stage_id: retired.id, is_deprecated: true },
          ],
        },
      });
      expect(diagram.status).toBe(201);
    });

    it("starts a new work in the start stage of its type's diagram", async () => {
      const ticket = await createWork(server, { type: "ticket", applies_to_part: feature.id });
      expect(ticket.stage).toMatchObject({
        name: "queued",
        stage: { id: queued.id },
        state: { name: "open" },
      });
      const issue = await createWork(server, { type: "issue", applies_to_part: feature.id });
      expect(issue).not.toHaveProperty("stage");
    });

    it("refuses to start a work in a stage its diagram does not open to it", async () => {
      for (const stage of [retired, await createStage(server, "elsewhere")]) {
        const res = await server.call("POST", "/works.create", {
          body: {
            type: "ticket",
            title: "Wrong start",
            applies_to_part: feature.id,
            owned_by: [server.admin.id],
            stage: { id: stage.id },
          },
        });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ type: "value_not_permitted", field_name: "stage" });
      }
      const named = await createWork(server, {
        type: "ticket",
        applies_to_part: feature.id,
        stage: { name: "working" },
      });
      expect(named.stage.name).toBe("working");
    });

    it("moves a work only along the diagram's transitions", async () => {
      const ticket = await createWork(server, { type: "ticket", applies_to_part: feature.id });
      const skip = await server.call("POST", "/works.update", {
        body: { id: ticket.id, stage: { name: "done" } },
      });
      expect(skip.status).toBe(400);
      expect(skip.body).toMatchObject({
        type: "value_not_permitted",
        field_name: "stage",
        allowed_values: ["working"],
      });
      expect(skip.body.reason).toContain("working");

      const move = await server.call("POST", "/works.update", {
        body: { id: ticket.id, stage: { id: working.id } },
      });
      expect(move.status).toBe(200);
      expect(move.body.work.stage).toMatchObject({ name: "working", state: { name: "in_progress" } });
      expect(move.body.work).not.toHaveProperty("actual_close_date");

      const deprecated = await server.call("POST", "/works.update", {
        body: { id: ticket.id, stage: { name: "retired" } },
      });
      expect(deprecated.status).toBe(400);
      expect(deprecated.body.allowed_values).toEqual(["done"]);

      const close = await server.call("POST", "/works.update", {
        body: { id: ticket.id, stage: { name: "done" } },
      });
      expect(close.status).toBe(200);
      expect(close.body.work.stage.state).toMatchObject({ name: "closed", is_final: true });
      expect(close.body.work.actual_close_date).toEqual(expect.any(String));
      const stay = await server.call("POST", "/works.update", {
        body: { id: ticket.id, stage: { name: "done" } },
      });
      expect(stay.body.work.object_version).toBe(close.body.work.object_version);

      const reopen = await server.call("POST", "/works.update", {
        body: { id: ticket.id, stage: { name: "working" } },
      });
      expect(reopen.status).toBe(200);
      expect(reopen.body.work).not.toHaveProperty("actual_close_date");
      const events = await changeEvents(server, ticket.id);
      const last = events[events.length - 1]?.event as { updated: { field_deltas: Array<{ name: string }> } };
      expect(last.updated.field_deltas.map((delta) => delta.name)).toEqual(
        expect.arrayContaining(["stage", "actual_close_date", "state_display_name"]),
      );
    });

    it("allows any existing stage for a type without a diagram", async () => {
      const issue = await createWork(server, { type: "issue", applies_to_part: feature.id });
      for (const stage of [done, queued, retired]) {
        const res = await server.call("POST", "/works.update", {
          body: { id: issue.id, stage: { id: stage.id } },
        });
        expect(res.status).toBe(200);
        expect(res.body.work.stage.stage.id).toBe(stage.id);
      }
    });
  });
});
