// Vistas through real HTTP: creation with items and sharing, who sees which vista, every list filter
// (shared_with member and role on the same entry), skip_items, the page limit of 100 and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

type Vista = { id: string; name: string; items?: unknown[] };

describe.each(databases)("vistas on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("vistas.create", () => {
    it("creates a curated vista whose items and members are resolved", async () => {
      const grace = await server.store.createDevUser(server.org, {
        email: "grace@example.com",
        full_name: "Grace",
      });
      const sla = (await server.call("POST", "/slas.create", { body: { name: "Gold" } })).body.sla;
      const schedule = (
        await server.call("POST", "/org-schedules.create", { body: { name: "Hours", timezone: "UTC" } })
      ).body.org_schedule;
      const res = await server.call("POST", "/vistas.create", {
        body: {
          name: "Key records",
          type: "curated",
          object_type: "works",
          flavor: "nnl",
          items: [{ id: sla.display_id }, { id: schedule.id }],
          shared_with: [{ member: grace.display_id, role: "ROLE-1" }, { member: server.admin.id }],
        },
      });
      expect(res.status).toBe(201);
      const vista = res.body.vista;
      expect(vista).toMatchObject({
        name: "Key records",
        type: "curated",
        object_type: "works",
        flavor: "nnl",
        is_default: false,
        items: [
          { type: "sla", id: sla.id, display_id: sla.display_id, display_name: "Gold" },
          { type: "org_schedule", id: schedule.id, display_id: schedule.display_id, display_name: "Hours" },
        ],
        shared_with: [
          {
            member: { id: grace.id, display_id: grace.display_id, full_name: "Grace" },
            role: { id: "ROLE-1" },
          },
          { member: { id: server.admin.id } },
        ],
        created_by: { id: server.admin.id },
        object_version: 1,
      });
      expect(vista.display_id).toMatch(/^VISTA-\d+$/);
      expect(vista.shared_with[1]).not.toHaveProperty("role");
      expect(Object.keys(vista).some((key) => key.startsWith("_"))).toBe(false);
    });

    it("creates dynamic and grouped vistas", async () => {
      const dynamic = await server.call("POST", "/vistas.create", {
        body: {
          name: "Inbox",
          type: "dynamic",
          flavor: "support_inbox",
          object_type: "conversations",
          is_default: true,
        },
      });
      expect(dynamic.status).toBe(201);
      expect(dynamic.body.vista).toMatchObject({ type: "dynamic", is_default: true });
      expect(dynamic.body.vista).not.toHaveProperty("items");
      const grouped = await server.call("POST", "/vistas.create", {
        body: { name: "Sprint 1", type: "grouped", flavor: "sprint_board", state: "planned" },
      });
      expect(grouped.body.vista).toMatchObject({ type: "grouped", state: "planned", items: [] });
    });

    it("refuses unknown items and members, a member named twice and items on a dynamic vista", async () => {
      const sla = (await server.call("POST", "/slas.create", { body: { name: "Item" } })).body.sla;
      const other = await server.otherOrg();
      const foreign = (
        await server.call("POST", "/slas.create", { token: other.token, body: { name: "Foreign" } })
      ).body.sla;
      for (const id of ["SLA-99999", foreign.id, "not-an-id"]) {
        const res = await server.call("POST", "/vistas.create", {
          body: { name: "V", type: "curated", items: [{ id: sla.id }, { id }] },
        });
        expect(res.status, id).toBe(400);
        expect(res.body).toMatchObject({ type: "invalid_id", field_name: "items.1.id" });
      }
      const member = await server.call("POST", "/vistas.create", {
        body: { name: "V", type: "curated", shared_with: [{ member: other.admin.id }] },
      });
      expect(member.body).toMatchObject({ type: "invalid_id", field_name: "shared_with.0.member" });
      const twice = await server.call("POST", "/vistas.create", {
        body: {
          name: "V",
          type: "curated",
          shared_with: [{ member: server.admin.id }, { member: server.admin.display_id, role: "R" }],
        },
      });
      expect(twice.body).toMatchObject({ type: "value_not_permitted", field_name: "shared_with.1.member" });
      const dynamic = await server.call("POST", "/vistas.create", {
        body: { name: "V", type: "dynamic", items: [{ id: sla.id }] },
      });
      expect(dynamic.body).toMatchObject({ type: "value_not_permitted", field_name: "items" });
      const noType = await server.call("POST", "/vistas.create", { body: { name: "V" } });
      expect(noType.body).toMatchObject({ type: "missing_required_field", field_name: "type" });
      const badType = await server.call("POST", "/vistas.create", { body: { name: "V", type: "smart" } });
      expect(badType.body).toMatchObject({ type: "invalid_enum_value", field_name: "type" });
    });
  });

  describe("vistas.list", () => {
    let other: Awaited<ReturnType<TestServer["otherOrg"]>>;
    const tokens: Record<string, string> = {};
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      // A separate organization with three users: its admin (A), B and C.
      other = await server.otherOrg();
      const b = await server.store.createDevUser(other.org, { email: "b@example.com", full_name: "Bea" });
      const c = await server.store.createDevUser(other.org, { email: "c@example.com", full_name: "Cy" });
      ids.A = other.admin.id;
      ids.B = b.id;
      ids.C = c.id;
      tokens.A = other.token;
      tokens.B = await server.token(["vista:all", "sla:all"], { org: other.org, user: b });
      tokens.C = await server.token(["vista:all"], { org: other.org, user: c });
      const item = (
        await server.call("POST", "/slas.create", { token: tokens.B, body: { name: "Sprint item" } })
      ).body.sla;
      const make = async (as: string, body: Record<string, unknown>) => {
        const res = await server.call("POST", "/vistas.create", { token: tokens[as], body });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      };
      await make("A", {
        name: "v1",
        type: "curated",
        flavor: "nnl",
        object_type: "works",
        is_default: true,
        items: [{ id: item.id }],
        shared_with: [{ member: ids.B, role: "R1" }],
      });
      await make("A", {
        name: "v2",
        type: "dynamic",
        flavor: "support_inbox",
        object_type: "conversations",
        shared_with: [{ member: ids.C }],
      });
      await make("A", {
        name: "v3",
        type: "grouped",
        flavor: "sprint_board",
        object_type: "works",
        state: "active",
        items: [{ id: item.id }],
        shared_with: [
          { member: ids.B, role: "R2" },
          { member: ids.C, role: "R1" },
        ],
      });
      await make("B", {
        name: "v4",
        type: "grouped",
        state: "planned",
        items: [{ id: item.id }],
        shared_with: [{ member: ids.A }],
      });
      await make("C", { name: "v5", type: "curated", object_type: "works" });
    });
    const names = async (method: "GET" | "POST", query: string | Record<string, unknown>, as = "A") => {
      const res =
        method === "GET"
          ? await server.call("GET", `/vistas.list?${query}`, { token: tokens[as] })
          : await server.call("POST", "/vistas.list", { token: tokens[as], body: query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.vistas as Vista[]).map((v) => v.name).sort();
    };

    it("shows the vistas the caller created or that are shared with them", async () => {
      expect(await names("GET", "")).toEqual(["v1", "v2", "v3", "v4"]);
      expect(await names("POST", {}, "B")).toEqual(["v1", "v3", "v4"]);
      expect(await names("POST", {}, "C")).toEqual(["v2", "v3", "v5"]);
    });

    it("filters by type, creator, flavor, is_default, object_type and state", async () => {
      expect(await names("GET", "type=grouped")).toEqual(["v3", "v4"]);
      expect(await names("GET", "type=curated,dynamic")).toEqual(["v1", "v2"]);
      expect(await names("POST", { created_by: [ids.B] })).toEqual(["v4"]);
      expect(await names("GET", "flavor=nnl,support_inbox")).toEqual(["v1", "v2"]);
      expect(await names("GET", "is_default=true")).toEqual(["v1"]);
      expect(await names("POST", { is_default: false })).toEqual(["v2", "v3", "v4"]);
      expect(await names("GET", "object_type=works")).toEqual(["v1", "v3"]);
      expect(await names("POST", { state: ["active", "completed"] })).toEqual(["v3"]);
      expect(await names("POST", { type: ["grouped"], state: ["planned"] })).toEqual(["v4"]);
    });

    it("filters by members (creator or shared with)", async () => {
      expect(await names("GET", `members=${ids.B}`)).toEqual(["v1", "v3", "v4"]);
      expect(await names("POST", { members: [ids.C] })).toEqual(["v2", "v3"]);
      expect(await names("POST", { members: ["GROUP-1"] })).toEqual([]);
    });

    it("filters by shared_with, matching member and role on the same entry", async () => {
      expect(await names("GET", `shared_with.member=${ids.B}`)).toEqual(["v1", "v3"]);
      expect(await names("GET", `shared_with.member=${ids.B}&shared_with.role=R2`)).toEqual(["v3"]);
      // v3 shares with B (as R2) and with someone else as R1: that is not B in R1.
      expect(await names("POST", { shared_with: [{ member: ids.B, role: "R1" }] })).toEqual(["v1"]);
      expect(await names("POST", { shared_with: [{ role: "R1" }] })).toEqual(["v1", "v3"]);
      expect(await names("POST", { shared_with: [{ member: ids.C }, { member: ids.A }] })).toEqual([
        "v2",
        "v3",
        "v4",
      ]);
      expect(await names("POST", { shared_with: [{ member: ids.C, role: "R9" }] })).toEqual([]);
    });

    it("leaves the items of grouped vistas out with skip_items", async () => {
      const res = await server.call("GET", "/vistas.list?skip_items=true&sort_by=name:asc", {
        token: tokens.A,
      });
      const vistas = res.body.vistas as Vista[];
      expect(vistas.map((v) => v.name)).toEqual(["v1", "v2", "v3", "v4"]);
      expect(vistas[0]?.items).toHaveLength(1);
      expect(vistas[2]).not.toHaveProperty("items");
      expect(vistas[3]).not.toHaveProperty("items");
      const full = await server.call("POST", "/vistas.list", {
        token: tokens.A,
        body: { type: ["grouped"] },
      });
      expect(full.body.vistas.every((v: Vista) => v.items?.length === 1)).toBe(true);
    });

    it("pages at most 100 vistas at a time, sorted as asked", async () => {
      for (const [method, query] of [
        ["GET", "/vistas.list?limit=101"],
        ["POST", "/vistas.list"],
      ] as const) {
        const res = await server.call(method, query, {
          token: tokens.A,
          ...(method === "POST" ? { body: { limit: 101 } } : {}),
        });
        expect(res.status, method).toBe(400);
        expect(res.body).toMatchObject({ type: "value_not_permitted", field_name: "limit" });
      }
      const hundred = await server.call("POST", "/vistas.list", { token: tokens.A, body: { limit: 100 } });
      expect(hundred.status).toBe(200);
      const first = await server.call("POST", "/vistas.list", {
        token: tokens.A,
        body: { limit: 3, sort_by: ["name:desc"] },
      });
      expect(first.body.vistas.map((v: Vista) => v.name)).toEqual(["v4", "v3", "v2"]);
      const rest = await server.call(
        "GET",
        `/vistas.list?limit=3&sort_by=name:desc&cursor=${first.body.next_cursor}`,
        { token: tokens.A },
      );
      expect(rest.body.vistas.map((v: Vista) => v.name)).toEqual(["v1"]);
      expect(rest.body).not.toHaveProperty("next_cursor");
    });
  });

  describe("scopes", () => {
    it("needs vista:read, vista:write or vista:all to list, and vista:write or vista:all to create", async () => {
      for (const scope of ["vista:read", "vista:write", "vista:all"]) {
        expect(
          (await server.call("GET", "/vistas.list", { token: await server.token([scope]) })).status,
        ).toBe(200);
      }
      const reader = await server.token(["vista:read"]);
      const refused = await server.call("POST", "/vistas.create", {
        token: reader,
        body: { name: "V", type: "curated" },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.type).toBe("forbidden");
      const none = await server.call("POST", "/vistas.list", {
        token: await server.token(["sla:read"]),
        body: {},
      });
      expect(none.status).toBe(403);
      for (const scope of ["vista:write", "vista:all"]) {
        const res = await server.call("POST", "/vistas.create", {
          token: await server.token([scope]),
          body: { name: scope, type: "curated" },
        });
        expect(res.status).toBe(201);
      }
    });

    it("answers dev_org_deactivated for a deactivated organization", async () => {
      const other = await server.otherOrg();
      await server.store.setOrgStatus(other.org.id, "deactivated");
      const res = await server.call("GET", "/vistas.list", { token: other.token });
      expect(res.status).toBe(401);
      expect(res.body.type).toBe("dev_org_deactivated");
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
