// Work items through real HTTP, on every database: create, get, update, delete, and the type scopes of each.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";
import {
  artifact,
  changeEvents,
  createFeature,
  createStage,
  createUser,
  createWork,
  tag,
} from "../record-builders.js";

describe.each(databases)("works on %s", (database) => {
  let server: TestServer;
  let feature: { id: string; display_id: string; name: string };
  let product: { id: string; display_id: string; name: string };
  beforeAll(async () => {
    server = await startTestServer(database);
    ({ product, feature } = await createFeature(server));
  });
  afterAll(async () => {
    await server.close();
  });

  describe("works.create", () => {
    it("creates a work item with every field", async () => {
      const reporter = await createUser(server, "Reporter One");
      const label = await tag(server, "customer");
      const file = await artifact(server, "trace.txt");
      const stage = await createStage(server, "triage");
      const res = await server.call("POST", "/works.create", {
        body: {
          type: "issue",
          title: "Export button does nothing",
          applies_to_part: feature.display_id,
          owned_by: [server.admin.display_id],
          reported_by: [reporter.id],
          body: "Clicking **Export** has no effect.",
          tags: [{ id: label.id, value: "acme" }],
          artifacts: [file.display_id],
          stage: { name: "triage" },
          target_close_date: "2030-11-20T17:00:00Z",
          external_ref: "crm-1",
          custom_fields: { tnt__severity: "high" },
          custom_schema_spec: { tenant_fragment: true },
        },
      });
      expect(res.status).toBe(201);
      const work = res.body.work;
      expect(work).toMatchObject({
        type: "issue",
        title: "Export button does nothing",
        body: "Clicking **Export** has no effect.",
        applies_to_part: {
          id: feature.id,
          display_id: feature.display_id,
          type: "feature",
          name: "Report export",
        },
        owned_by: [{ id: server.admin.id }],
        reported_by: [{ id: reporter.id, full_name: "Reporter One" }],
        tags: [{ tag: { id: label.id, name: "customer" }, value: "acme" }],
        artifacts: [{ id: file.id, display_id: file.display_id }],
        stage: { name: "triage", stage: { id: stage.id }, state: { name: "open", is_final: false } },
        state_display_name: "open",
        target_close_date: "2030-11-20T17:00:00.000Z",
        external_ref: "crm-1",
        custom_fields: { tnt__severity: "high" },
        custom_schema_fragments: ["tenant_fragment:issue"],
        object_version: 1,
        created_by: { id: server.admin.id },
      });
      expect(work.display_id).toMatch(/^ISS-\d+$/);
      expect(work.id).toMatch(/:issue\/\d+$/);
      expect(work).not.toHaveProperty("actual_close_date");
      // The artifact now belongs to the work.
      const stored = await server.store.getRecord(server.org.id, ["artifact"], file.id);
      expect(stored?.parent_id).toBe(work.id);
      expect((await changeEvents(server, work.id)).map((event) => event.event)).toEqual([
        { type: "created", created: { object: expect.objectContaining({ id: work.id, type: "issue" }) } },
      ]);
    });

    it("uses each work type's display prefix", async () => {
      const prefixes = { ticket: "TKT", task: "TASK", incident: "INC", opportunity: "OPP" };
      for (const [type, prefix] of Object.entries(prefixes)) {
        const work = await createWork(server, { type, applies_to_part: product.id });
        expect(work.display_id).toMatch(new RegExp(`^${prefix}-\\d+$`));
        expect(work).not.toHaveProperty("stage");
      }
    });

    it("refuses ids that name no record of the right kind", async () => {
      const other = await createWork(server, { applies_to_part: feature.id });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ applies_to_part: other.id }, "applies_to_part"],
        [{ applies_to_part: "PROD-99999" }, "applies_to_part"],
        [{ owned_by: ["DEVU-99999"] }, "owned_by.0"],
        [{ reported_by: [server.admin.id, "DEVU-99999"] }, "reported_by.1"],
        [{ tags: [{ id: "TAG-99999" }] }, "tags.0.id"],
        [{ artifacts: ["ARTIFACT-99999"] }, "artifacts.0"],
        [{ stage: { id: "STAGE-99999" } }, "stage.id"],
      ];
      for (const [fields, field] of cases) {
        const res = await server.call("POST", "/works.create", {
          body: {
            type: "issue",
            title: "Bad",
            applies_to_part: feature.id,
            owned_by: [server.admin.id],
            ...fields,
          },
        });
        expect(res.status, field).toBe(400);
        expect(res.body, field).toMatchObject({ type: "invalid_id", field_name: field });
      }
      const unknownStage = await server.call("POST", "/works.create", {
        body: {
          type: "issue",
          title: "Bad",
          applies_to_part: feature.id,
          owned_by: [server.admin.id],
          stage: { name: "nowhere" },
        },
      });
      expect(unknownStage.body).toMatchObject({ type: "invalid_field", field_name: "stage.name" });
    });

    it("refuses a duplicate external_ref with 409", async () => {
      await createWork(server, { applies_to_part: feature.id, external_ref: "dup-1" });
      const res = await server.call("POST", "/works.create", {
        body: {
          type: "ticket",
          title: "Again",
          applies_to_part: feature.id,
          owned_by: [server.admin.id],
          external_ref: "dup-1",
        },
      });
      expect(res.status).toBe(409);
      expect(res.body.type).toBe("conflict");
    });

    it("refuses custom fields without their schema", async () => {
      const res = await server.call("POST", "/works.create", {
        body: {
          type: "issue",
          title: "Custom",
          applies_to_part: feature.id,
          owned_by: [server.admin.id],
          custom_fields: { tnt__severity: "high" },
        },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        type: "customization_validation_error",
        field_name: "custom_fields.tnt__severity",
      });
    });

    it("refuses an artifact that belongs to another record", async () => {
      const file = await artifact(server, "shared.txt");
      const first = await createWork(server, { applies_to_part: feature.id, artifacts: [file.id] });
      const res = await server.call("POST", "/works.create", {
        body: {
          type: "issue",
          title: "Second",
          applies_to_part: feature.id,
          owned_by: [server.admin.id],
          artifacts: [file.id],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        type: "artifact_already_attached_to_a_parent",
        existing_parent: first.id,
        is_same: false,
      });
    });

    it("needs the write or all scope of the type asked for", async () => {
      const issueWriter = await server.token(["issue:write"]);
      const made = await createWork(server, { applies_to_part: feature.id }, issueWriter);
      expect(made.type).toBe("issue");
      const denied = await server.call("POST", "/works.create", {
        token: issueWriter,
        body: { type: "ticket", title: "No", applies_to_part: feature.id, owned_by: [server.admin.id] },
      });
      expect(denied.status).toBe(403);
      expect(denied.body.type).toBe("forbidden");
      expect(denied.body.detail).toContain("ticket:write");
      const ticketAll = await server.token(["ticket:all"]);
      expect(
        (await createWork(server, { type: "ticket", applies_to_part: feature.id }, ticketAll)).type,
      ).toBe("ticket");
      const reader = await server.call("POST", "/works.create", {
        token: await server.token(["issue:read"]),
        body: { type: "issue", title: "No", applies_to_part: feature.id, owned_by: [server.admin.id] },
      });
      expect(reader.status).toBe(403);
    });
  });

  describe("works.get", () => {
    it("gets a work by id or display id with both methods, scoped by its type", async () => {
      const work = await createWork(server, { type: "task", title: "Read me", applies_to_part: feature.id });
      const byGet = await server.call("GET", `/works.get?id=${work.display_id}`);
      expect(byGet.status).toBe(200);
      expect(byGet.body.work).toEqual(work);
      const byPost = await server.call("POST", "/works.get", { body: { id: work.id } });
      expect(byPost.body).toEqual(byGet.body);
      expect((await server.call("POST", "/works.get", { body: { id: "TASK-99999" } })).status).toBe(404);
      const taskReader = await server.token(["task:read"]);
      expect(
        (await server.call("POST", "/works.get", { token: taskReader, body: { id: work.id } })).status,
      ).toBe(200);
      const denied = await server.call("POST", "/works.get", {
        token: await server.token(["issue:all"]),
        body: { id: work.id },
      });
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ type: "forbidden", object_ids: [work.id] });
      const other = await server.otherOrg();
      expect(
        (await server.call("POST", "/works.get", { token: other.token, body: { id: work.id } })).status,
      ).toBe(404);
    });
  });

  describe("works.update", () => {
    it("changes fields, replaces lists with set, and records the deltas", async () => {
      const second = await createUser(server, "Second Owner");
      const one = await tag(server, "one");
      const two = await tag(server, "two");
      const work = await createWork(server, {
        title: "Old title",
        applies_to_part: feature.id,
        tags: [{ id: one.id }],
      });
      const res = await server.call("POST", "/works.update", {
        body: {
          id: work.display_id,
          title: "New title",
          body: "Now with a body",
          applies_to_part: product.id,
          owned_by: { set: [second.id, server.admin.id] },
          reported_by: { set: [second.display_id] },
          tags: { set: [{ id: two.id }] },
          target_close_date: "2031-01-01T00:00:00.000Z",
          external_ref: "upd-1",
          custom_fields: { tnt__team: "core" },
          custom_schema_spec: { tenant_fragment: true },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.work).toMatchObject({
        id: work.id,
        type: "issue",
        title: "New title",
        body: "Now with a body",
        applies_to_part: { id: product.id, type: "product" },
        owned_by: [{ id: second.id }, { id: server.admin.id }],
        reported_by: [{ id: second.id }],
        tags: [{ tag: { id: two.id } }],
        target_close_date: "2031-01-01T00:00:00.000Z",
        external_ref: "upd-1",
        custom_fields: { tnt__team: "core" },
        object_version: 2,
      });
      const read = await server.call("POST", "/works.get", { body: { id: work.id } });
      expect(read.body.work).toEqual(res.body.work);

      const events = await changeEvents(server, work.id);
      expect(events.map((event) => event.event?.type)).toEqual(["created", "updated"]);
      const updated = events[1]?.event as {
        updated: { object_type: string; field_deltas: Array<{ name: string }> };
      };
      expect(updated.updated.object_type).toBe("issue");
      const title = updated.updated.field_deltas.find((delta) => delta.name === "title");
      expect(title).toMatchObject({
        old_value: { type: "string", value: "Old title" },
        new_value: { type: "string", value: "New title" },
      });
      expect(updated.updated.field_deltas.map((delta) => delta.name)).toEqual(
        expect.arrayContaining(["applies_to_part", "owned_by", "reported_by", "tags", "custom_fields"]),
      );

      // Nothing changed: no new version, no event.
      const same = await server.call("POST", "/works.update", { body: { id: work.id, title: "New title" } });
      expect(same.body.work.object_version).toBe(2);
      expect(await changeEvents(server, work.id)).toHaveLength(2);
    });

    it("attaches and detaches artifacts with set, add and remove", async () => {
      const [a, b, c] = [
        await artifact(server, "a"),
        await artifact(server, "b"),
        await artifact(server, "c"),
      ];
      const work = await createWork(server, { applies_to_part: feature.id, artifacts: [a.id] });
      const ids = (body: { work: { artifacts: Array<{ id: string }> } }) =>
        body.work.artifacts.map((x) => x.id);
      const added = await server.call("POST", "/works.update", {
        body: { id: work.id, artifacts: { add: [b.display_id, a.id] } },
      });
      expect(ids(added.body)).toEqual([a.id, b.id]);
      const removed = await server.call("POST", "/works.update", {
        body: { id: work.id, artifacts: { remove: [a.display_id] } },
      });
      expect(ids(removed.body)).toEqual([b.id]);
      expect((await server.store.getRecord(server.org.id, ["artifact"], a.id))?.parent_id).toBeNull();
      const set = await server.call("POST", "/works.update", {
        body: { id: work.id, artifacts: { set: [c.id] } },
      });
      expect(ids(set.body)).toEqual([c.id]);
      expect((await server.store.getRecord(server.org.id, ["artifact"], b.id))?.parent_id).toBeNull();
      expect((await server.store.getRecord(server.org.id, ["artifact"], c.id))?.parent_id).toBe(work.id);
      const both = await server.call("POST", "/works.update", {
        body: { id: work.id, artifacts: { set: [], add: [a.id] } },
      });
      expect(both.body).toMatchObject({ type: "invalid_field", field_name: "artifacts" });
    });

    it("refuses empty owners, unknown ids, a taken external_ref and a type change", async () => {
      await createWork(server, { applies_to_part: feature.id, external_ref: "taken" });
      const work = await createWork(server, { applies_to_part: feature.id });
      const cases: Array<[Record<string, unknown>, number, Record<string, unknown>]> = [
        [{ owned_by: { set: [] } }, 400, { type: "value_not_permitted", field_name: "owned_by.set" }],
        [{ owned_by: { set: ["DEVU-99999"] } }, 400, { type: "invalid_id", field_name: "owned_by.set.0" }],
        [{ applies_to_part: work.id }, 400, { type: "invalid_id", field_name: "applies_to_part" }],
        [{ tags: { set: [{ id: "TAG-99999" }] } }, 400, { type: "invalid_id", field_name: "tags.set.0.id" }],
        [{ external_ref: "taken" }, 409, { type: "conflict" }],
        [{ type: "ticket" }, 400, { type: "invalid_field", field_name: "type" }],
        [{ custom_fields: { tnt__x: 1 } }, 400, { type: "customization_validation_error" }],
      ];
      for (const [fields, status, expected] of cases) {
        const res = await server.call("POST", "/works.update", { body: { id: work.id, ...fields } });
        expect(res.status, JSON.stringify(fields)).toBe(status);
        expect(res.body, JSON.stringify(fields)).toMatchObject(expected);
      }
      const unchanged = await server.call("POST", "/works.get", { body: { id: work.id } });
      expect(unchanged.body.work.object_version).toBe(1);
      const missing = await server.call("POST", "/works.update", { body: { id: "ISS-99999", title: "x" } });
      expect(missing.status).toBe(404);
    });

    it("needs the write or all scope of the work's type", async () => {
      const work = await createWork(server, { type: "ticket", applies_to_part: feature.id });
      const reader = await server.call("POST", "/works.update", {
        token: await server.token(["ticket:read", "issue:write"]),
        body: { id: work.id, title: "No" },
      });
      expect(reader.status).toBe(403);
      expect(reader.body).toMatchObject({ type: "forbidden", object_ids: [work.id] });
      const writer = await server.call("POST", "/works.update", {
        token: await server.token(["ticket:write"]),
        body: { id: work.id, title: "Yes" },
      });
      expect(writer.status).toBe(200);
      expect(writer.body.work.modified_by.id).toBe(server.admin.id);
    });
  });

  describe("works.delete", () => {
    it("deletes a work, after which every read of it is 404", async () => {
      const file = await artifact(server, "attached.txt");
      const work = await createWork(server, { applies_to_part: feature.id, artifacts: [file.id] });
      const res = await server.call("POST", "/works.delete", { body: { id: work.display_id } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      for (const [path, body] of [
        ["/works.get", { id: work.id }],
        ["/works.get", { id: work.display_id }],
        ["/works.update", { id: work.id, title: "Back" }],
        ["/works.delete", { id: work.id }],
        ["/timeline-entries.list", { object: work.id }],
      ] as const) {
        const read = await server.call("POST", path, { body });
        expect(read.status, path).toBe(404);
        expect(read.body.type).toBe("not_found");
      }
      const listed = await server.call("POST", "/works.export", { body: { first: 5000 } });
      expect(listed.body.works.map((w: { id: string }) => w.id)).not.toContain(work.id);
      expect((await changeEvents(server, work.id)).map((event) => event.event?.type)).toEqual([
        "created",
        "deleted",
      ]);
      // Its artifact is free again.
      expect((await server.store.getRecord(server.org.id, ["artifact"], file.id))?.parent_id).toBeNull();
    });

    it("needs the all scope of the work's type", async () => {
      const work = await createWork(server, { type: "incident", applies_to_part: feature.id });
      const writer = await server.call("POST", "/works.delete", {
        token: await server.token(["incident:write", "issue:all"]),
        body: { id: work.id },
      });
      expect(writer.status).toBe(403);
      expect(writer.body).toMatchObject({ type: "forbidden", object_ids: [work.id] });
      const all = await server.call("POST", "/works.delete", {
        token: await server.token(["incident:all"]),
        body: { id: work.id },
      });
      expect(all.status).toBe(200);
    });

    it("answers 404 for an unknown work", async () => {
      const res = await server.call("POST", "/works.delete", { body: { id: "ISS-99999" } });
      expect(res.status).toBe(404);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
