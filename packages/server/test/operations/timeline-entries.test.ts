// Timeline entries through real HTTP, on every database: comments on the timelines of records of every kind
// that has one, their external references, reads and lists, the change events writes leave, and the scopes
// that follow the type of the record owning the timeline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevUser } from "../../src/store/types.js";
import { databases, startTestServer, type TestServer } from "../harness.js";
import { artifact, createPart, createUser, createWork, ok, tag } from "../record-builders.js";

describe.each(databases)("timeline entries on %s", (database) => {
  let server: TestServer;
  let feature: { id: string; display_id: string };
  let issue: { id: string; display_id: string };
  let ticket: { id: string; display_id: string };
  let other: DevUser;
  beforeAll(async () => {
    server = await startTestServer(database);
    const product = await createPart(server, "product", "Timeline product");
    const capability = await createPart(server, "capability", "Timeline capability", product.id);
    feature = await createPart(server, "feature", "Timeline feature", capability.id);
    issue = await createWork(server, {
      type: "issue",
      title: "Commented issue",
      applies_to_part: feature.id,
    });
    ticket = await createWork(server, {
      type: "ticket",
      title: "Commented ticket",
      applies_to_part: feature.id,
    });
    other = await createUser(server, "Other User");
  });
  afterAll(async () => {
    await server.close();
  });

  const comment = (object: string, fields: Record<string, unknown> = {}, token?: string) =>
    server.call("POST", "/timeline-entries.create", {
      body: { type: "timeline_comment", object, ...fields },
      ...(token ? { token } : {}),
    });

  describe("timeline-entries.create", () => {
    it("adds a comment to a work's timeline", async () => {
      const file = await artifact(server, "recording.txt");
      const res = await comment(issue.display_id, {
        body: "Reproduced on Safari 18.",
        artifacts: [file.display_id],
        labels: ["repro"],
        visibility: "external",
        external_ref: "zendesk-1",
      });
      expect(res.status).toBe(201);
      const entry = res.body.timeline_entry;
      expect(entry).toMatchObject({
        type: "timeline_comment",
        object: issue.id,
        object_display_id: issue.display_id,
        object_type: "issue",
        body: "Reproduced on Safari 18.",
        artifacts: [{ id: file.id, display_id: file.display_id }],
        labels: ["repro"],
        visibility: "external",
        external_ref: "zendesk-1",
        object_version: 1,
        created_by: { id: server.admin.id },
      });
      expect(entry.display_id).toMatch(/^TL-\d+$/);
      expect((await server.store.getRecord(server.org.id, ["artifact"], file.id))?.parent_id).toBe(entry.id);
    });

    it("defaults to internal visibility and no labels", async () => {
      const res = await comment(ticket.id, { body: "Plain" });
      expect(res.status).toBe(201);
      expect(res.body.timeline_entry).toMatchObject({
        visibility: "internal",
        labels: [],
        object_type: "ticket",
      });
      expect(res.body.timeline_entry).not.toHaveProperty("external_ref");
    });

    it("comments on parts and on records of the other kinds with timelines", async () => {
      const part = await comment(feature.id, { body: "On a part" });
      expect(part.status).toBe(201);
      expect(part.body.timeline_entry.object_type).toBe("feature");
      const account = (await ok(server, "/accounts.create", { display_name: "Globex" })).account;
      const records: Array<[string, { id: string; display_id: string }]> = [
        ["account", account],
        [
          "conversation",
          (await ok(server, "/conversations.create", { type: "support", title: "Help" })).conversation,
        ],
        [
          "rev_org",
          (await ok(server, "/rev-orgs.create", { account: account.id, display_name: "Globex EU" })).rev_org,
        ],
        [
          "article",
          (
            await ok(server, "/articles.create", {
              title: "Guide",
              owned_by: [server.admin.id],
              resource: { url: "https://docs.example.com/guide" },
            })
          ).article,
        ],
      ];
      for (const [family, record] of records) {
        const res = await comment(record.display_id, { body: `On a ${family}` });
        expect(res.status, family).toBe(201);
        expect(res.body.timeline_entry).toMatchObject({ object: record.id, object_type: family });
        const scoped = await comment(record.id, {}, await server.token([`${family}:write`]));
        expect(scoped.status, family).toBe(201);
        const denied = await comment(record.id, {}, await server.token(["issue:write"]));
        expect(denied.status, family).toBe(403);
        const read = await server.call("POST", "/timeline-entries.list", {
          token: await server.token([`${family}:read`]),
          body: { object: record.id, visibility: ["internal"] },
        });
        expect(read.body.timeline_entries.map((entry: { body?: string }) => entry.body)).toContain(
          `On a ${family}`,
        );
      }
    });

    it("answers 404 for an object that does not exist, and 400 for one without a timeline", async () => {
      const missing = await comment("ISS-99999", { body: "Nobody" });
      expect(missing.status).toBe(404);
      expect(missing.body.type).toBe("not_found");
      const label = await tag(server, "no-timeline");
      const tagged = await comment(label.id, { body: "A tag has no timeline" });
      expect(tagged.status).toBe(400);
      expect(tagged.body).toMatchObject({ type: "value_not_permitted", field_name: "object" });
      const entry = (await comment(issue.id, { body: "Not a timeline" })).body.timeline_entry;
      const nested = await comment(entry.id, { body: "Entries have no timeline" });
      expect(nested.body).toMatchObject({ type: "value_not_permitted", field_name: "object" });
      const foreign = await server.otherOrg();
      const res = await server.call("POST", "/timeline-entries.create", {
        token: foreign.token,
        body: { type: "timeline_comment", object: issue.id },
      });
      expect(res.status).toBe(404);
    });

    it("keeps external_ref unique on one timeline, and free across timelines", async () => {
      expect((await comment(issue.id, { external_ref: "ext-unique" })).status).toBe(201);
      const again = await comment(issue.id, { external_ref: "ext-unique" });
      expect(again.status).toBe(409);
      expect(again.body.type).toBe("conflict");
      expect((await comment(ticket.id, { external_ref: "ext-unique" })).status).toBe(201);
      const long = await comment(issue.id, { external_ref: "x".repeat(513) });
      expect(long.status).toBe(400);
      expect(long.body.field_name).toBe("external_ref");
      const empty = await comment(issue.id, { external_ref: "" });
      expect(empty.body.field_name).toBe("external_ref");
    });

    it("refuses unknown artifacts, and artifacts another record holds", async () => {
      const unknown = await comment(issue.id, { artifacts: ["ARTIFACT-99999"] });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ type: "invalid_id", field_name: "artifacts.0" });
      const file = await artifact(server, "taken.txt");
      const holder = await createWork(server, { applies_to_part: feature.id, artifacts: [file.id] });
      const taken = await comment(issue.id, { artifacts: [file.id] });
      expect(taken.status).toBe(400);
      expect(taken.body).toMatchObject({
        type: "artifact_already_attached_to_a_parent",
        existing_parent: holder.id,
      });
    });

    it("needs the write scope of the owning record's type", async () => {
      const issueWriter = await server.token(["issue:write"]);
      expect((await comment(issue.id, {}, issueWriter)).status).toBe(201);
      const denied = await comment(ticket.id, {}, issueWriter);
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ type: "forbidden", object_ids: [ticket.id] });
      expect((await comment(ticket.id, {}, await server.token(["ticket:all"]))).status).toBe(201);
      expect((await comment(issue.id, {}, await server.token(["issue:read", "ticket:write"]))).status).toBe(
        403,
      );
    });
  });

  describe("timeline-entries.get", () => {
    it("gets an entry by id, or by external_ref on a record's timeline", async () => {
      const made = await comment(ticket.id, { body: "Find me", external_ref: "find-me" });
      const entry = made.body.timeline_entry;
      const byId = await server.call("GET", `/timeline-entries.get?id=${entry.display_id}`);
      expect(byId.status).toBe(200);
      expect(byId.body.timeline_entry).toEqual(entry);
      const byRef = await server.call("POST", "/timeline-entries.get", {
        body: { id: ticket.display_id, external_ref: "find-me" },
      });
      expect(byRef.status).toBe(200);
      expect(byRef.body.timeline_entry).toEqual(entry);
      const query = await server.call(
        "GET",
        `/timeline-entries.get?id=${encodeURIComponent(ticket.id)}&external_ref=find-me`,
      );
      expect(query.body.timeline_entry.id).toBe(entry.id);
    });

    it("answers 404 for unknown entries, references and records", async () => {
      const cases: Array<Record<string, unknown>> = [
        { id: "TL-99999" },
        { id: ticket.id },
        { id: ticket.id, external_ref: "never-made" },
        { id: issue.id, external_ref: "find-me" },
        { id: "TKT-99999", external_ref: "find-me" },
      ];
      for (const body of cases) {
        const res = await server.call("POST", "/timeline-entries.get", { body });
        expect(res.status, JSON.stringify(body)).toBe(404);
        expect(res.body.type).toBe("not_found");
      }
      const tooLong = await server.call("POST", "/timeline-entries.get", {
        body: { id: ticket.id, external_ref: "y".repeat(513) },
      });
      expect(tooLong.status).toBe(400);
    });

    it("needs the read or write scope of the owning record's type", async () => {
      const made = await comment(issue.id, { body: "Scoped read" });
      const entry = made.body.timeline_entry;
      for (const scope of ["issue:read", "issue:write"]) {
        const res = await server.call("POST", "/timeline-entries.get", {
          token: await server.token([scope]),
          body: { id: entry.id },
        });
        expect(res.status, scope).toBe(200);
      }
      const denied = await server.call("POST", "/timeline-entries.get", {
        token: await server.token(["ticket:read"]),
        body: { id: entry.id },
      });
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ type: "forbidden", object_ids: [issue.id] });
    });

    it("shows a private entry only to its author", async () => {
      const otherToken = await server.token(["issue:write"], { user: other });
      const made = await comment(
        issue.id,
        { body: "Just mine", visibility: "private", external_ref: "mine" },
        otherToken,
      );
      expect(made.status).toBe(201);
      const entry = made.body.timeline_entry;
      const own = await server.call("POST", "/timeline-entries.get", {
        token: otherToken,
        body: { id: entry.id },
      });
      expect(own.status).toBe(200);
      expect((await server.call("POST", "/timeline-entries.get", { body: { id: entry.id } })).status).toBe(
        404,
      );
      expect(
        (await server.call("POST", "/timeline-entries.get", { body: { id: issue.id, external_ref: "mine" } }))
          .status,
      ).toBe(404);
    });
  });

  describe("timeline-entries.list", () => {
    let listed: { id: string; display_id: string };
    beforeAll(async () => {
      listed = await createWork(server, { type: "task", title: "Listed", applies_to_part: feature.id });
      for (const visibility of ["external", "internal", "public", "private", "external"]) {
        await ok(server, "/timeline-entries.create", {
          type: "timeline_comment",
          object: listed.id,
          body: visibility,
          visibility,
        });
      }
      await ok(server, "/works.update", { id: listed.id, title: "Listed, renamed" });
    });

    const entries = async (body: Record<string, unknown>, token?: string) => {
      const res = await server.call("POST", "/timeline-entries.list", { body, ...(token ? { token } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.timeline_entries as Array<{
        type: string;
        body?: string;
        visibility: string;
        event?: { type: string; updated?: { field_deltas: Array<{ name: string }> } };
      }>;
    };

    it("lists the comments and change events of one record, oldest first", async () => {
      const all = await entries({ object: listed.id });
      expect(all.map((entry) => entry.body ?? entry.event?.type)).toEqual([
        "created",
        "external",
        "internal",
        "public",
        "private",
        "external",
        "updated",
      ]);
      const update = all[all.length - 1];
      expect(update?.type).toBe("timeline_change_event");
      expect(update?.event?.updated?.field_deltas.map((delta) => delta.name)).toEqual(["title"]);
      const newest = await entries({ object: listed.display_id, sort_by: ["created_date:desc"], limit: 1 });
      expect(newest.map((entry) => entry.event?.type)).toEqual(["updated"]);
    });

    it("narrows by visibility, with both methods", async () => {
      const external = await entries({ object: listed.id, visibility: ["external", "public"] });
      expect(external.map((entry) => entry.body)).toEqual(["external", "public", "external"]);
      const res = await server.call(
        "GET",
        `/timeline-entries.list?object=${encodeURIComponent(listed.id)}&visibility=internal`,
      );
      expect(res.status).toBe(200);
      expect(res.body.timeline_entries.map((entry: { body?: string }) => entry.body ?? "event")).toEqual([
        "event",
        "internal",
        "event",
      ]);
    });

    it("hides other users' private entries", async () => {
      const mine = await entries({ object: listed.id, visibility: ["private"] });
      expect(mine).toHaveLength(1);
      const theirs = await entries({ object: listed.id }, await server.token(["task:read"], { user: other }));
      expect(theirs.map((entry) => entry.body ?? entry.event?.type)).not.toContain("private");
      expect(theirs).toHaveLength(6);
    });

    it("pages", async () => {
      const first = await server.call("POST", "/timeline-entries.list", {
        body: { object: listed.id, limit: 4 },
      });
      expect(first.body.timeline_entries).toHaveLength(4);
      const second = await server.call("POST", "/timeline-entries.list", {
        body: { object: listed.id, limit: 4, cursor: first.body.next_cursor },
      });
      expect(second.body.timeline_entries).toHaveLength(3);
      expect(second.body.next_cursor).toBeUndefined();
      const back = await server.call("POST", "/timeline-entries.list", {
        body: { object: listed.id, limit: 4, mode: "before", cursor: second.body.prev_cursor },
      });
      expect(back.body.timeline_entries).toEqual(first.body.timeline_entries);
    });

    it("needs `object`, an existing record and the read or write scope of its type", async () => {
      const missing = await server.call("POST", "/timeline-entries.list", { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ type: "missing_required_field", field_name: "object" });
      const unknown = await server.call("POST", "/timeline-entries.list", { body: { object: "TASK-99999" } });
      expect(unknown.status).toBe(404);
      const denied = await server.call("POST", "/timeline-entries.list", {
        token: await server.token(["issue:read"]),
        body: { object: listed.id },
      });
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ type: "forbidden", object_ids: [listed.id] });
      const allowed = await server.call("POST", "/timeline-entries.list", {
        token: await server.token(["task:write"]),
        body: { object: listed.id },
      });
      expect(allowed.status).toBe(200);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
