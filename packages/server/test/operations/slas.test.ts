// SLAs through real HTTP: drafts, policies replaced in order, updates only on drafts, the life of an SLA,
// every list filter (applies_to all vs any), pagination and scopes, on every database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

const policy = (name: string, appliesTo = "ticket", target = 60) => ({
  name,
  selector: { applies_to: appliesTo },
  metrics: [{ metric: "first_response", target }],
});

describe.each(databases)("SLAs on %s", (database) => {
  let server: TestServer;
  const create = async (body: Record<string, unknown>) => {
    const res = await server.call("POST", "/slas.create", { body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.sla as { id: string; display_id: string; status: string; name: string };
  };
  const listNames = async (method: "GET" | "POST", query: string | Record<string, unknown>) => {
    const res =
      method === "GET"
        ? await server.call("GET", `/slas.list?${query}`)
        : await server.call("POST", "/slas.list", { body: query });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.slas as Array<{ name: string }>).map((sla) => sla.name).sort();
  };

  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("slas.create", () => {
    it("creates a draft with the defaults filled in and the policies in order", async () => {
      const res = await server.call("POST", "/slas.create", {
        body: {
          name: "Premium support",
          description: "First response within one hour.",
          applies_to: ["ticket", "conversation"],
          evaluation_period: "monthly",
          account_selector: { tier: ["enterprise"], domains: ["globex.example"] },
          policies: [policy("Urgent", "ticket", 30), policy("Chats", "conversation", 10), policy("Rest")],
        },
      });
      expect(res.status).toBe(201);
      const sla = res.body.sla;
      expect(sla).toMatchObject({
        name: "Premium support",
        description: "First response within one hour.",
        status: "draft",
        sla_type: "external",
        applies_to: ["ticket", "conversation"],
        evaluation_period: "monthly",
        account_filter: { tier: ["enterprise"], domains: ["globex.example"] },
        object_version: 1,
        created_by: { id: server.admin.id },
      });
      expect(sla.display_id).toMatch(/^SLA-\d+$/);
      expect(sla.policies.map((p: { name: string }) => p.name)).toEqual(["Urgent", "Chats", "Rest"]);
      expect(sla).not.toHaveProperty("account_selector");
    });

    it("keeps an internal type and needs only a name", async () => {
      const sla = await create({ name: "Internal only", sla_type: "internal" });
      expect(sla).toMatchObject({ sla_type: "internal", status: "draft" });
      const missing = await server.call("POST", "/slas.create", { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ type: "missing_required_field", field_name: "name" });
    });

    it("refuses a policy for a kind of record the SLA does not apply to", async () => {
      const res = await server.call("POST", "/slas.create", {
        body: { name: "Mismatch", applies_to: ["ticket"], policies: [policy("Ok"), policy("Bad", "issue")] },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        type: "value_not_permitted",
        field_name: "policies.1.selector.applies_to",
        allowed_values: ["ticket"],
      });
    });

    it("refuses ids in policies and the account selector that do not exist", async () => {
      const owner = await server.call("POST", "/slas.create", {
        body: {
          name: "X",
          policies: [{ ...policy("P"), selector: { applies_to: "ticket", owners: ["DEVU-999"] } }],
        },
      });
      expect(owner.status).toBe(400);
      expect(owner.body).toMatchObject({ type: "invalid_id", field_name: "policies.0.selector.owners.0" });
      const part = await server.call("POST", "/slas.create", {
        body: {
          name: "X",
          policies: [{ ...policy("P"), selector: { applies_to: "ticket", parts: ["PROD-999"] } }],
        },
      });
      expect(part.body).toMatchObject({ type: "invalid_id", field_name: "policies.0.selector.parts.0" });
      const schedule = await server.call("POST", "/slas.create", {
        body: {
          name: "X",
          policies: [{ ...policy("P"), metrics: [{ metric: "m", target: 5, org_schedule_id: "SCHED-999" }] }],
        },
      });
      expect(schedule.body).toMatchObject({
        type: "invalid_id",
        field_name: "policies.0.metrics.0.org_schedule_id",
      });
      const selector = await server.call("POST", "/slas.create", {
        body: { name: "X", account_selector: { owned_by: [server.admin.display_id, "DEVU-999"] } },
      });
      expect(selector.body).toMatchObject({ type: "invalid_id", field_name: "account_selector.owned_by.1" });
    });

    it("accepts ids that exist (users and an org schedule)", async () => {
      const schedule = await server.call("POST", "/org-schedules.create", {
        body: { name: "Hours", timezone: "UTC" },
      });
      const sla = await create({
        name: "With refs",
        policies: [
          {
            name: "Owned",
            selector: { applies_to: "ticket", owners: [server.admin.display_id] },
            metrics: [{ metric: "m", target: 5, org_schedule_id: schedule.body.org_schedule.id }],
          },
        ],
      });
      expect(sla.status).toBe("draft");
    });

    it("refuses malformed policies and unknown fields", async () => {
      const res = await server.call("POST", "/slas.create", {
        body: { name: "X", policies: [{ name: "P", selector: { applies_to: "ticket", colour: "red" } }] },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ type: "invalid_field", field_name: "policies.0.selector.colour" });
      const kind = await server.call("POST", "/slas.create", {
        body: { name: "X", applies_to: ["account"] },
      });
      expect(kind.body).toMatchObject({ type: "invalid_enum_value", field_name: "applies_to.0" });
    });
  });

  describe("slas.update", () => {
    it("replaces the whole policy array in the order sent and changes only the fields sent", async () => {
      const sla = await create({
        name: "Replace me",
        description: "Before",
        applies_to: ["ticket", "issue"],
        policies: [policy("A"), policy("B"), policy("C")],
      });
      const res = await server.call("POST", "/slas.update", {
        body: { id: sla.display_id, policies: [policy("C", "issue"), policy("A")] },
      });
      expect(res.status).toBe(201);
      expect(res.body.sla.policies.map((p: { name: string }) => p.name)).toEqual(["C", "A"]);
      expect(res.body.sla.policies[0].selector.applies_to).toBe("issue");
      expect(res.body.sla).toMatchObject({ name: "Replace me", description: "Before", object_version: 2 });
      const more = await server.call("POST", "/slas.update", {
        body: {
          id: sla.id,
          name: "Renamed",
          description: "After",
          evaluation_period: "quarterly",
          account_selector: { tier: ["gold"] },
        },
      });
      expect(more.body.sla).toMatchObject({
        name: "Renamed",
        description: "After",
        evaluation_period: "quarterly",
        account_filter: { tier: ["gold"] },
        object_version: 3,
      });
      expect(more.body.sla.policies.map((p: { name: string }) => p.name)).toEqual(["C", "A"]);
      const emptied = await server.call("POST", "/slas.update", { body: { id: sla.id, policies: [] } });
      expect(emptied.body.sla.policies).toEqual([]);
      // The list shows the stored state.
      const listed = await server.call("POST", "/slas.list", { body: { limit: 100 } });
      expect(listed.body.slas.find((s: { id: string }) => s.id === sla.id)).toMatchObject({
        name: "Renamed",
        policies: [],
      });
    });

    it("refuses a published or archived SLA: only drafts can be updated", async () => {
      for (const status of ["published", "archived"]) {
        const sla = await create({ name: `Frozen ${status}`, policies: [policy("A")] });
        const moved = await server.call("POST", "/slas.transition", { body: { id: sla.id, status } });
        expect(moved.status).toBe(200);
        const res = await server.call("POST", "/slas.update", {
          body: { id: sla.id, policies: [policy("B")] },
        });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          type: "value_not_permitted",
          field_name: "id",
          reason: expect.stringContaining("only draft"),
        });
        expect(res.body.detail).toContain(status);
        // The state is checked first: nothing else about the request matters for a frozen SLA.
        const invalid = await server.call("POST", "/slas.update", {
          body: { id: sla.id, account_selector: { owned_by: ["DEVU-99999"] } },
        });
        expect(invalid.body).toMatchObject({ type: "value_not_permitted", field_name: "id" });
        const after = await server.call("POST", "/slas.list", { body: { status: [status], limit: 100 } });
        const stored = after.body.slas.find((s: { id: string }) => s.id === sla.id);
        expect(stored.policies.map((p: { name: string }) => p.name)).toEqual(["A"]);
      }
    });

    it("answers 404 for an unknown id and for another organization's SLA", async () => {
      const res = await server.call("POST", "/slas.update", { body: { id: "SLA-99999", name: "X" } });
      expect(res.status).toBe(404);
      expect(res.body.type).toBe("not_found");
      const sla = await create({ name: "Mine" });
      const other = await server.otherOrg();
      const foreign = await server.call("POST", "/slas.update", {
        token: other.token,
        body: { id: sla.id, name: "Theirs" },
      });
      expect(foreign.status).toBe(404);
    });

    it("refuses an empty name, a mismatched policy and unknown ids", async () => {
      const sla = await create({ name: "Checked", applies_to: ["conversation"] });
      const empty = await server.call("POST", "/slas.update", { body: { id: sla.id, name: " " } });
      expect(empty.body).toMatchObject({ type: "value_not_permitted", field_name: "name" });
      const mismatch = await server.call("POST", "/slas.update", {
        body: { id: sla.id, policies: [policy("T", "ticket")] },
      });
      expect(mismatch.body).toMatchObject({
        type: "value_not_permitted",
        field_name: "policies.0.selector.applies_to",
      });
      const tag = await server.call("POST", "/slas.update", {
        body: { id: sla.id, account_selector: { tags: ["TAG-99999"] } },
      });
      expect(tag.body).toMatchObject({ type: "invalid_id", field_name: "account_selector.tags.0" });
    });
  });

  describe("slas.transition", () => {
    it("publishes and archives along the allowed moves and refuses the others, listing the allowed ones", async () => {
      const sla = await create({ name: "Lifecycle" });
      const again = await server.call("POST", "/slas.transition", {
        body: { id: sla.id, status: "archived" },
      });
      expect(again.status).toBe(200);
      expect(again.body.sla.status).toBe("archived");
      const stuck = await server.call("POST", "/slas.transition", {
        body: { id: sla.id, status: "published" },
      });
      expect(stuck.status).toBe(400);
      expect(stuck.body).toMatchObject({
        type: "value_not_permitted",
        field_name: "status",
        allowed_values: [],
      });

      const other = await create({ name: "Lifecycle 2" });
      const published = await server.call("POST", "/slas.transition", {
        body: { id: other.display_id, status: "published" },
      });
      expect(published.body.sla).toMatchObject({ status: "published", object_version: 2 });
      const twice = await server.call("POST", "/slas.transition", {
        body: { id: other.id, status: "published" },
      });
      expect(twice.status).toBe(400);
      expect(twice.body).toMatchObject({ type: "value_not_permitted", allowed_values: ["archived"] });
      const archived = await server.call("POST", "/slas.transition", {
        body: { id: other.id, status: "archived" },
      });
      expect(archived.body.sla.status).toBe("archived");
    });

    it("refuses a state that is not a target, and an unknown SLA", async () => {
      const sla = await create({ name: "Target" });
      const draft = await server.call("POST", "/slas.transition", { body: { id: sla.id, status: "draft" } });
      expect(draft.body).toMatchObject({ type: "invalid_enum_value", field_name: "status" });
      const missing = await server.call("POST", "/slas.transition", {
        body: { id: "SLA-99999", status: "published" },
      });
      expect(missing.status).toBe(404);
    });
  });

  describe("slas.list", () => {
    let other: Awaited<ReturnType<TestServer["otherOrg"]>>;
    beforeAll(async () => {
      // A separate organization holds exactly these SLAs, so the filters can be checked exactly.
      other = await server.otherOrg();
      const make = async (body: Record<string, unknown>, status?: string) => {
        const res = await server.call("POST", "/slas.create", { token: other.token, body });
        if (status) {
          await server.call("POST", "/slas.transition", {
            token: other.token,
            body: { id: res.body.sla.id, status },
          });
        }
      };
      await make({ name: "tickets", applies_to: ["ticket"] }, "published");
      await make({ name: "tickets+conversations", applies_to: ["ticket", "conversation"] });
      await make({ name: "issues", applies_to: ["issue"], sla_type: "internal" }, "archived");
      await make(
        { name: "everything", applies_to: ["conversation", "incident", "issue", "ticket"] },
        "published",
      );
      await make({ name: "nothing", sla_type: "internal" });
    });
    const names = async (method: "GET" | "POST", query: string | Record<string, unknown>) => {
      const res =
        method === "GET"
          ? await server.call("GET", `/slas.list?${query}`, { token: other.token })
          : await server.call("POST", "/slas.list", { token: other.token, body: query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.slas as Array<{ name: string }>).map((sla) => sla.name).sort();
    };

    it("filters by applies_to with all and any (any by default)", async () => {
      expect(await names("GET", "applies_to=ticket,conversation&applies_to_op=all")).toEqual([
        "everything",
        "tickets+conversations",
      ]);
      expect(await names("GET", "applies_to=ticket,conversation&applies_to_op=any")).toEqual([
        "everything",
        "tickets",
        "tickets+conversations",
      ]);
      expect(await names("POST", { applies_to: ["ticket", "conversation"] })).toEqual([
        "everything",
        "tickets",
        "tickets+conversations",
      ]);
      expect(await names("POST", { applies_to: ["issue", "incident"], applies_to_op: "all" })).toEqual([
        "everything",
      ]);
      expect(await names("POST", { applies_to: ["issue"], applies_to_op: "all" })).toEqual([
        "everything",
        "issues",
      ]);
    });

    it("filters by sla_type and status, alone and together", async () => {
      expect(await names("GET", "sla_type=internal")).toEqual(["issues", "nothing"]);
      expect(await names("GET", "status=published")).toEqual(["everything", "tickets"]);
      expect(await names("POST", { status: ["draft", "archived"] })).toEqual([
        "issues",
        "nothing",
        "tickets+conversations",
      ]);
      expect(await names("POST", { status: ["draft"], sla_type: ["internal"] })).toEqual(["nothing"]);
      expect(await names("GET", "status=published&applies_to=issue")).toEqual(["everything"]);
      expect(await names("POST", {})).toHaveLength(5);
    });

    it("sorts and pages with cursors", async () => {
      const sorted = await server.call("GET", "/slas.list?sort_by=name:desc", { token: other.token });
      expect(sorted.body.slas.map((s: { name: string }) => s.name)).toEqual([
        "tickets+conversations",
        "tickets",
        "nothing",
        "issues",
        "everything",
      ]);
      const first = await server.call("POST", "/slas.list", {
        token: other.token,
        body: { sort_by: ["name:asc"], limit: 2 },
      });
      expect(first.body.slas.map((s: { name: string }) => s.name)).toEqual(["everything", "issues"]);
      expect(first.body).not.toHaveProperty("prev_cursor");
      const second = await server.call("POST", "/slas.list", {
        token: other.token,
        body: { sort_by: ["name:asc"], limit: 2, cursor: first.body.next_cursor },
      });
      expect(second.body.slas.map((s: { name: string }) => s.name)).toEqual(["nothing", "tickets"]);
      expect(second.body.prev_cursor).toEqual(expect.any(String));
      const bad = await server.call("GET", "/slas.list?sort_by=colour:asc", { token: other.token });
      expect(bad.body).toMatchObject({ type: "value_not_permitted", field_name: "sort_by.0" });
    });

    it("shows only the caller's organization", async () => {
      const mine = await listNames("POST", { limit: 100 });
      expect(mine).not.toContain("tickets+conversations");
    });
  });

  describe("scopes", () => {
    it("needs sla:read, sla:write or sla:all to list and sla:write or sla:all to write", async () => {
      const sla = await create({ name: "Scoped" });
      for (const scope of ["sla:read", "sla:write", "sla:all"]) {
        const res = await server.call("GET", "/slas.list", { token: await server.token([scope]) });
        expect(res.status, scope).toBe(200);
      }
      const none = await server.token(["vista:read"]);
      const list = await server.call("GET", "/slas.list", { token: none });
      expect(list.status).toBe(403);
      // slas.list is one of the operations whose forbidden carries no object_ids.
      expect(list.body).not.toHaveProperty("object_ids");
      const reader = await server.token(["sla:read"]);
      for (const [path, body] of [
        ["/slas.create", { name: "No" }],
        ["/slas.update", { id: sla.id, name: "No" }],
        ["/slas.transition", { id: sla.id, status: "published" }],
      ] as const) {
        const res = await server.call("POST", path, { token: reader, body });
        expect(res.status, path).toBe(403);
        expect(res.body.type).toBe("forbidden");
      }
      for (const scope of ["sla:write", "sla:all"]) {
        const token = await server.token([scope]);
        expect((await server.call("POST", "/slas.create", { token, body: { name: scope } })).status).toBe(
          201,
        );
        expect(
          (await server.call("POST", "/slas.update", { token, body: { id: sla.id, description: scope } }))
            .status,
        ).toBe(201);
      }
      const writer = await server.token(["sla:write"]);
      expect(
        (
          await server.call("POST", "/slas.transition", {
            token: writer,
            body: { id: sla.id, status: "published" },
          })
        ).status,
      ).toBe(200);
    });

    it("answers dev_org_deactivated for a deactivated organization", async () => {
      const other = await server.otherOrg();
      await server.store.setOrgStatus(other.org.id, "deactivated");
      const res = await server.call("POST", "/slas.create", { token: other.token, body: { name: "X" } });
      expect(res.status).toBe(401);
      expect(res.body.type).toBe("dev_org_deactivated");
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
