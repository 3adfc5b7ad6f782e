// conversations.create / get / list through real HTTP: every body field, initial messages as timeline
// comments, stages by name and by id, the custom-schema rule, the 400s of unknown ids, scopes and filters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

describe.each(databases)("conversations on %s", (database) => {
  let server: TestServer;
  let member: { id: string; display_id: string };
  let accountId: string;
  let tagId: string;
  let queued: { id: string; display_id: string };
  let waiting: { id: string; display_id: string };

  const create = (body: unknown, token?: string) =>
    server.call("POST", "/conversations.create", { body, ...(token ? { token } : {}) });

  async function artifact(name: string): Promise<string> {
    const res = await server.call("POST", "/artifacts.prepare", { body: { file_name: name } });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  beforeAll(async () => {
    server = await startTestServer(database);
    member = await server.store.createDevUser(server.org, {
      email: "mia@example.com",
      full_name: "Mia Member",
    });
    const account = await server.call("POST", "/accounts.create", { body: { display_name: "Globex" } });
    accountId = account.body.account.id;
    const tag = await server.call("POST", "/tags.create", { body: { name: "billing" } });
    tagId = tag.body.tag.id;
    // Stages are made through stages.custom.create; the built-in state `open` is STATE-1.
    const one = await server.call("POST", "/stages.custom.create", {
      body: { name: "queued", ordinal: 1, state: "STATE-1" },
    });
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    queued = one.body.custom_stage;
    const two = await server.call("POST", "/stages.custom.create", {
      body: { name: "waiting_on_customer", ordinal: 2, state: "STATE-1" },
    });
    waiting = two.body.custom_stage;
  });
  afterAll(async () => {
    await server.close();
  });

  describe("conversations.create", () => {
    it("creates a conversation from its type alone", async () => {
      const res = await create({ type: "support" });
      expect(res.status).toBe(201);
      const conversation = res.body.conversation;
      expect(conversation).toMatchObject({
        type: "support",
        is_frozen: false,
        is_spam: false,
        object_version: 1,
        members: [],
        owned_by: [],
        messages: [],
        tags: [],
        created_by: { id: server.admin.id },
      });
      expect(conversation.display_id).toMatch(/^CONV-\d+$/);
      expect(conversation.id).toMatch(/:conversation\/\d+$/);
      // The creation is on the conversation's timeline.
      const timeline = await server.store.findRecords<{ event: { type: string } }>(
        server.org.id,
        "timeline_entry",
        { filter: { op: "eq", path: "parent_id", value: conversation.id }, limit: 10 },
      );
      expect(timeline.map((entry) => entry.data.event.type)).toEqual(["created"]);
    });

    it("keeps every field of the body", async () => {
      const file = await artifact("screenshot.png");
      const res = await create({
        type: "support",
        title: "Invoice in the wrong currency",
        description: "Invoices show USD instead of EUR.",
        account: accountId,
        ai_resolution_status: 2,
        brand: "BRAND-1",
        channels: ["CHAN-1", "CHAN-2"],
        custom_fields: { tnt__region: "emea" },
        custom_schema_spec: { tenant_fragment: true, validate_required_fields: true },
        group: "GRP-3",
        is_spam: true,
        is_from_source_channel: true,
        members: [member.display_id],
        metadata: { url_context: "https://app.example.com/billing" },
        owned_by: [server.admin.id],
        owned_by_agent: "AGENT-1",
        source_channel: "email",
        stage: { name: "queued" },
        tags: [{ id: tagId, value: "urgent" }],
        messages: [
          { body: "Our October invoice shows USD." },
          { body: "Here is a screenshot.", artifacts: [file] },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const conversation = res.body.conversation;
      expect(conversation).toMatchObject({
        title: "Invoice in the wrong currency",
        description: "Invoices show USD instead of EUR.",
        account: { id: accountId, display_name: "Globex" },
        ai_resolution_status: { id: 2, label: "escalated", ordinal: 2 },
        brand: { id: "BRAND-1" },
        channels: [{ id: "CHAN-1" }, { id: "CHAN-2" }],
        custom_fields: { tnt__region: "emea" },
        custom_schema_fragments: ["tenant_fragment:conversation"],
        group: { id: "GRP-3" },
        is_spam: true,
        is_from_source_channel: true,
        members: [{ id: member.id, display_id: member.display_id }],
        metadata: { url_context: "https://app.example.com/billing" },
        owned_by: [{ id: server.admin.id }],
        owned_by_agent: { id: "AGENT-1" },
        source_channel: "email",
        stage: { name: "queued", stage: { id: queued.id, name: "queued" } },
        tags: [{ tag: { id: tagId, name: "billing" }, value: "urgent" }],
      });
      expect(conversation.account.display_id).toMatch(/^ACC-\d+$/);

      // Each initial message is a comment on the conversation's timeline, listed in `messages`.
      expect(conversation.messages).toHaveLength(2);
      const [first, second] = conversation.messages;
      expect(first).toMatchObject({
        type: "timeline_comment",
        object: conversation.id,
        object_display_id: conversation.display_id,
        object_type: "conversation",
        body: "Our October invoice shows USD.",
      });
      expect(second).toMatchObject({ body: "Here is a screenshot.", artifacts: [{ id: file }] });
      const comments = await server.store.findRecords(server.org.id, "timeline_entry", {
        filter: {
          op: "and",
          filters: [
            { op: "eq", path: "parent_id", value: conversation.id },
            { op: "eq", path: "subtype", value: "timeline_comment" },
          ],
        },
        limit: 10,
      });
      expect(comments.map((entry) => entry.id)).toEqual([first.id, second.id]);
      // The message's file now belongs to the comment.
      const files = await server.call("POST", "/artifacts.list", { body: { parent_id: second.id } });
      expect(files.body.artifacts.map((a: { id: string }) => a.id)).toEqual([file]);

      const got = await server.call("GET", `/conversations.get?id=${conversation.display_id}`);
      expect(got.body.conversation).toEqual(conversation);
    });

    it("names the stage by id, and the id wins over the name", async () => {
      const byId = await create({ type: "support", stage: { id: waiting.display_id } });
      expect(byId.body.conversation.stage).toMatchObject({ name: "waiting_on_customer" });
      const both = await create({ type: "support", stage: { id: waiting.id, name: "queued" } });
      expect(both.body.conversation.stage.stage.id).toBe(waiting.id);
      const unknownName = await create({ type: "support", stage: { name: "nowhere" } });
      expect(unknownName.status).toBe(400);
      expect(unknownName.body).toMatchObject({ type: "invalid_field", field_name: "stage.name" });
      const unknownId = await create({ type: "support", stage: { id: "STAGE-9999" } });
      expect(unknownId.status).toBe(400);
      expect(unknownId.body).toMatchObject({ type: "invalid_id", field_name: "stage.id" });
    });

    it("refuses custom fields without their schema", async () => {
      const res = await create({ type: "support", custom_fields: { tnt__region: "emea" } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        type: "customization_validation_error",
        field_name: "custom_fields.tnt__region",
      });
      const subtype = await create({
        type: "support",
        custom_fields: { ctype__sla: "gold" },
        custom_schema_spec: { tenant_fragment: true },
      });
      expect(subtype.status).toBe(400);
      const ok = await create({
        type: "support",
        custom_fields: { ctype__sla: "gold" },
        custom_schema_spec: { subtype: "premium" },
      });
      expect(ok.status).toBe(201);
      expect(ok.body.conversation.custom_schema_fragments).toEqual([
        "custom_type_fragment:conversation:premium",
      ]);
    });

    it.each([
      [{ account: "ACC-9999" }, "account"],
      [{ members: ["DEVU-9999"] }, "members.0"],
      [{ owned_by: ["nobody"] }, "owned_by.0"],
      [{ tags: [{ id: "TAG-9999" }] }, "tags.0.id"],
      [{ messages: [{ body: "hi" }, { artifacts: ["ARTIFACT-9999"] }] }, "messages.1.artifacts.0"],
    ])("refuses the unknown id in %j as invalid_id naming %s", async (body, field) => {
      const res = await create({ type: "support", ...body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ type: "invalid_id", field_name: field });
    });

    it("writes nothing when a request is refused", async () => {
      const before = await server.call("POST", "/conversations.list", { body: { limit: 1000 } });
      const res = await create({ type: "support", title: "never", members: ["DEVU-9999"] });
      expect(res.status).toBe(400);
      const after = await server.call("POST", "/conversations.list", { body: { limit: 1000 } });
      expect(after.body.conversations).toHaveLength(before.body.conversations.length);
    });

    it("takes the stock AI resolution statuses only", async () => {
      const deflected = await create({ type: "support", ai_resolution_status: 1 });
      expect(deflected.body.conversation.ai_resolution_status).toEqual({
        id: 1,
        label: "deflected",
        ordinal: 1,
      });
      const unknown = await create({ type: "support", ai_resolution_status: 7 });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({
        type: "value_not_permitted",
        field_name: "ai_resolution_status",
        allowed_values: ["1", "2"],
      });
    });

    it("refuses a file already attached to another record", async () => {
      const file = await artifact("log.txt");
      const first = await create({ type: "support", messages: [{ body: "log", artifacts: [file] }] });
      expect(first.status).toBe(201);
      const again = await create({ type: "support", messages: [{ body: "again", artifacts: [file] }] });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({
        type: "artifact_already_attached_to_a_parent",
        existing_parent: first.body.conversation.messages[0].id,
        is_same: false,
      });
    });

    it("validates the body against the contract", async () => {
      const missing = await create({ title: "no type" });
      expect(missing.body).toMatchObject({ type: "missing_required_field", field_name: "type" });
      const unknown = await create({ type: "support", colour: "red" });
      expect(unknown.body).toMatchObject({ type: "invalid_field", field_name: "colour" });
      const wrong = await create({ type: "support", stage: { label: "queued" } });
      expect(wrong.status).toBe(400);
    });

    it("needs conversation:write or conversation:all", async () => {
      for (const scope of ["conversation:write", "conversation:all"]) {
        const res = await create({ type: "support" }, await server.token([scope]));
        expect(res.status, scope).toBe(201);
      }
      const denied = await create({ type: "support" }, await server.token(["conversation:read"]));
      expect(denied.status).toBe(403);
      expect(denied.body.type).toBe("forbidden");
    });
  });

  describe("conversations.get", () => {
    it("gets a conversation by id or display id with both methods, and 404s the rest", async () => {
      const made = (await create({ type: "support", title: "Find me" })).body.conversation;
      const byGet = await server.call("GET", `/conversations.get?id=${encodeURIComponent(made.id)}`);
      expect(byGet.status).toBe(200);
      expect(byGet.body.conversation).toEqual(made);
      const byPost = await server.call("POST", "/conversations.get", { body: { id: made.display_id } });
      expect(byPost.body).toEqual(byGet.body);
      const missing = await server.call("GET", "/conversations.get?id=CONV-99999");
      expect(missing.status).toBe(404);
      expect(missing.body.type).toBe("not_found");
      const other = await server.otherOrg();
      const foreign = await server.call("POST", "/conversations.get", {
        token: other.token,
        body: { id: made.id },
      });
      expect(foreign.status).toBe(404);
    });

    it("needs a conversation scope", async () => {
      const made = (await create({ type: "support" })).body.conversation;
      for (const scope of ["conversation:read", "conversation:write", "conversation:all"]) {
        const token = await server.token([scope]);
        const res = await server.call("POST", "/conversations.get", { token, body: { id: made.id } });
        expect(res.status, scope).toBe(200);
      }
      const token = await server.token(["issue:read"]);
      const denied = await server.call("POST", "/conversations.get", { token, body: { id: made.id } });
      expect(denied.status).toBe(403);
    });
  });

  describe("conversations.list", () => {
    let fresh: TestServer;
    const titles = (res: { body: { conversations: Array<{ title?: string }> } }) =>
      res.body.conversations.map((conversation) => conversation.title).sort();

    beforeAll(async () => {
      // A server of its own, so the filters see only these conversations.
      fresh = await startTestServer(database);
      const user = await fresh.store.createDevUser(fresh.org, { email: "u@example.com", full_name: "U" });
      const account = (await fresh.call("POST", "/accounts.create", { body: { display_name: "A" } })).body
        .account;
      const tag = (await fresh.call("POST", "/tags.create", { body: { name: "vip" } })).body.tag;
      await fresh.call("POST", "/stages.custom.create", {
        body: { name: "queued", ordinal: 1, state: "STATE-1" },
      });
      const make = (body: Record<string, unknown>) =>
        fresh.call("POST", "/conversations.create", { body: { type: "support", ...body } });
      await make({ title: "alpha", account: account.id, source_channel: "email", stage: { name: "queued" } });
      await make({ title: "bravo", members: [user.id], source_channel: "chat" });
      await make({ title: "charlie", owned_by: [user.display_id], tags: [{ id: tag.id }] });
      await make({ title: "delta", source_channel: "email" });
    });
    afterAll(async () => {
      expect(fresh.app.violations).toEqual([]);
      await fresh.close();
    });

    it("applies each filter, by POST and by GET", async () => {
      const account = (await fresh.call("POST", "/accounts.list", { body: {} })).body.accounts[0];
      const user = (await fresh.store.listDevUsers(fresh.org.id)).find((u) => u.email === "u@example.com");
      const tag = (await fresh.call("GET", "/tags.list?name=vip")).body.tags[0];
      const post = (body: unknown) => fresh.call("POST", "/conversations.list", { body });
      expect(titles(await post({}))).toEqual(["alpha", "bravo", "charlie", "delta"]);
      expect(titles(await post({ account: [account.display_id] }))).toEqual(["alpha"]);
      expect(titles(await post({ members: [user?.id] }))).toEqual(["bravo"]);
      expect(titles(await post({ owned_by: [user?.display_id] }))).toEqual(["charlie"]);
      expect(titles(await post({ source_channel: ["email"] }))).toEqual(["alpha", "delta"]);
      expect(titles(await post({ stage: { name: ["queued"] } }))).toEqual(["alpha"]);
      expect(titles(await post({ tags: [tag.id] }))).toEqual(["charlie"]);
      expect(titles(await post({ source_channel: ["email"], account: [account.id] }))).toEqual(["alpha"]);
      expect(titles(await fresh.call("GET", "/conversations.list?stage.name=queued"))).toEqual(["alpha"]);
      expect(titles(await fresh.call("GET", "/conversations.list?source_channel=chat,email"))).toEqual([
        "alpha",
        "bravo",
        "delta",
      ]);
    });

    it("sorts by title and pages with cursors", async () => {
      const first = await fresh.call("POST", "/conversations.list", {
        body: { sort_by: ["title:desc"], limit: 3 },
      });
      expect(first.body.conversations.map((c: { title: string }) => c.title)).toEqual([
        "delta",
        "charlie",
        "bravo",
      ]);
      expect(first.body.prev_cursor).toBeUndefined();
      const second = await fresh.call("POST", "/conversations.list", {
        body: { sort_by: ["title:desc"], limit: 3, cursor: first.body.next_cursor },
      });
      expect(second.body.conversations.map((c: { title: string }) => c.title)).toEqual(["alpha"]);
      expect(second.body.next_cursor).toBeUndefined();
      const bad = await fresh.call("POST", "/conversations.list", { body: { sort_by: ["colour:asc"] } });
      expect(bad.status).toBe(400);
      expect(bad.body.type).toBe("value_not_permitted");
    });

    it("needs a conversation scope", async () => {
      const ok = await fresh.call("GET", "/conversations.list", {
        token: await fresh.token(["conversation:read"]),
      });
      expect(ok.status).toBe(200);
      const denied = await fresh.call("GET", "/conversations.list", {
        token: await fresh.token(["tag:read"]),
      });
      expect(denied.status).toBe(403);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
