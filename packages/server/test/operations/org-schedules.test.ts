// Organization schedules through real HTTP: the time-zone check, weekly schedules, fragment references, the
// list filters and scopes, on every database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

const YEAR = { from: "2027-01-01T00:00:00.000Z", to: "2028-01-01T00:00:00.000Z" };

describe.each(databases)("org schedules on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  const fragment = async (body: Record<string, unknown>, token?: string) => {
    const res = await server.call("POST", "/org-schedule-fragments.create", {
      body: { name: "Holidays", ...YEAR, intervals: [], ...body },
      ...(token ? { token } : {}),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.org_schedule_fragment as { id: string; display_id: string; to: string };
  };

  describe("org-schedules.create", () => {
    it("creates a draft schedule valid until the latest end of its fragments", async () => {
      const first = await fragment({ name: "2027" });
      const second = await fragment({ name: "H1 2028", from: YEAR.to, to: "2028-07-01T00:00:00.000Z" });
      const res = await server.call("POST", "/org-schedules.create", {
        body: {
          name: "Support hours (Europe)",
          timezone: "Europe/Berlin",
          min_valid_days: 30,
          default_weekly_org_schedule: { period_name: "Standard", intervals: [{ from: 540, to: 1020 }] },
          weekly_org_schedules: [
            {
              period_name: "Summer",
              intervals: [
                { from: 480, to: 960 },
                { from: 1920, to: 2400 },
              ],
            },
            { period_name: "Whole week", intervals: [{ from: 0, to: 10080 }] },
          ],
          org_schedule_fragments: [{ id: second.display_id }, { id: first.id }],
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.org_schedule).toMatchObject({
        name: "Support hours (Europe)",
        timezone: "Europe/Berlin",
        status: "draft",
        min_valid_days: 30,
        valid_until: "2028-07-01T00:00:00.000Z",
        org_schedule_fragments: [{ id: second.id }, { id: first.id }],
        weekly_org_schedules: [{ period_name: "Summer" }, { period_name: "Whole week" }],
        object_version: 1,
      });
      expect(res.body.org_schedule.display_id).toMatch(/^SCHED-\d+$/);
    });

    it("checks the time zone against the IANA names", async () => {
      for (const timezone of ["UTC", "America/New_York", "Asia/Kolkata"]) {
        const res = await server.call("POST", "/org-schedules.create", {
          body: { name: timezone, timezone },
        });
        expect(res.status, timezone).toBe(201);
        expect(res.body.org_schedule.timezone).toBe(timezone);
      }
      for (const timezone of ["Mars/Olympus_Mons", "+02:00", "Berlin time"]) {
        const res = await server.call("POST", "/org-schedules.create", { body: { name: "Bad", timezone } });
        expect(res.status, timezone).toBe(400);
        expect(res.body).toMatchObject({ type: "value_not_permitted", field_name: "timezone" });
      }
    });

    it("refuses weekly intervals that are empty, overlap or leave the week, and periods named twice", async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [
          { default_weekly_org_schedule: { period_name: "W", intervals: [{ from: 600, to: 600 }] } },
          "default_weekly_org_schedule.intervals.0.to",
          "value_not_permitted",
        ],
        [
          {
            weekly_org_schedules: [
              { period_name: "A", intervals: [{ from: 0, to: 60 }] },
              {
                period_name: "B",
                intervals: [
                  { from: 500, to: 700 },
                  { from: 100, to: 600 },
                ],
              },
            ],
          },
          "weekly_org_schedules.1.intervals.0.from",
          "value_not_permitted",
        ],
        [
          { default_weekly_org_schedule: { period_name: "W", intervals: [{ from: 0, to: 10081 }] } },
          "default_weekly_org_schedule.intervals.0.to",
          "value_not_permitted",
        ],
        [
          {
            weekly_org_schedules: [
              { period_name: "A", intervals: [] },
              { period_name: "A", intervals: [] },
            ],
          },
          "weekly_org_schedules.1.period_name",
          "value_not_permitted",
        ],
      ];
      for (const [body, field, type] of cases) {
        const res = await server.call("POST", "/org-schedules.create", {
          body: { name: "Weeks", timezone: "UTC", ...body },
        });
        expect(res.status, field).toBe(400);
        expect(res.body, field).toMatchObject({ type, field_name: field });
      }
    });

    it("refuses fragment ids that do not exist, in this organization", async () => {
      const other = await server.otherOrg();
      const theirs = await fragment({ name: "Theirs" }, other.token);
      for (const id of ["SCHEDFRAG-99999", theirs.id]) {
        const res = await server.call("POST", "/org-schedules.create", {
          body: { name: "Refs", timezone: "UTC", org_schedule_fragments: [{ id }] },
        });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ type: "invalid_id", field_name: "org_schedule_fragments.0.id" });
      }
    });
  });

  describe("org-schedules.list", () => {
    let other: Awaited<ReturnType<TestServer["otherOrg"]>>;
    beforeAll(async () => {
      other = await server.otherOrg();
      const second = await server.store.createDevUser(other.org, { email: "b@example.com", full_name: "B" });
      const secondToken = await server.token(["org_schedule:all"], { org: other.org, user: second });
      const soon = new Date(Date.now() + 5 * 86_400_000);
      soon.setUTCHours(0, 0, 0, 0);
      const near = await fragment(
        { name: "Near", from: new Date(Date.now() - 86_400_000).toISOString(), to: soon.toISOString() },
        other.token,
      );
      const far = await fragment({ name: "Far" }, other.token);
      const make = async (name: string, token: string, fragments: string[]) => {
        const res = await server.call("POST", "/org-schedules.create", {
          token,
          body: { name, timezone: "UTC", org_schedule_fragments: fragments.map((id) => ({ id })) },
        });
        expect(res.status).toBe(201);
      };
      await make("near", other.token, [near.id]);
      await make("far", other.token, [far.id]);
      await make("none", secondToken, []);
    });
    const names = async (method: "GET" | "POST", query: string | Record<string, unknown>) => {
      const res =
        method === "GET"
          ? await server.call("GET", `/org-schedules.list?${query}`, { token: other.token })
          : await server.call("POST", "/org-schedules.list", { token: other.token, body: query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.org_schedules as Array<{ name: string }>).map((s) => s.name).sort();
    };

    it("filters by status, creator and valid_until (range and preset)", async () => {
      expect(await names("GET", "")).toEqual(["far", "near", "none"]);
      expect(await names("GET", "status=draft")).toEqual(["far", "near", "none"]);
      expect(await names("GET", "status=published,archived")).toEqual([]);
      expect(await names("GET", `created_by_id=${other.admin.display_id}`)).toEqual(["far", "near"]);
      expect(await names("POST", { created_by_id: [other.admin.id] })).toEqual(["far", "near"]);
      expect(
        await names("POST", { valid_until: { type: "range", after: "2027-06-01T00:00:00.000Z" } }),
      ).toEqual(["far"]);
      expect(
        await names("POST", { valid_until: { type: "range", before: "2028-01-01T00:00:00.000Z" } }),
      ).toEqual(["far", "near"]);
      expect(await names("POST", { valid_until: { type: "range" } })).toEqual(["far", "near"]);
      expect(
        await names("POST", { valid_until: { type: "preset", preset_type: "next_n_days", days: 7 } }),
      ).toEqual(["near"]);
      expect(
        await names("POST", { valid_until: { type: "preset", preset_type: "last_n_days", days: 7 } }),
      ).toEqual([]);
      const bad = await server.call("POST", "/org-schedules.list", {
        token: other.token,
        body: { valid_until: { type: "preset", preset_type: "next_n_days" } },
      });
      expect(bad.status).toBe(400);
    });

    it("sorts and pages", async () => {
      const sorted = await server.call("GET", "/org-schedules.list?sort_by=name:asc&limit=2", {
        token: other.token,
      });
      expect(sorted.body.org_schedules.map((s: { name: string }) => s.name)).toEqual(["far", "near"]);
      const next = await server.call(
        "GET",
        `/org-schedules.list?sort_by=name:asc&limit=2&cursor=${sorted.body.next_cursor}`,
        { token: other.token },
      );
      expect(next.body.org_schedules.map((s: { name: string }) => s.name)).toEqual(["none"]);
      expect(next.body).not.toHaveProperty("next_cursor");
      const byValidity = await server.call("POST", "/org-schedules.list", {
        token: other.token,
        body: { sort_by: ["valid_until:desc"] },
      });
      expect(byValidity.body.org_schedules.map((s: { name: string }) => s.name)).toEqual([
        "far",
        "near",
        "none",
      ]);
    });
  });

  describe("scopes and authentication", () => {
    it("needs org_schedule scopes; forbidden carries no object_ids on these operations", async () => {
      for (const scope of ["org_schedule:read", "org_schedule:write", "org_schedule:all"]) {
        const res = await server.call("GET", "/org-schedules.list", { token: await server.token([scope]) });
        expect(res.status, scope).toBe(200);
      }
      const reader = await server.token(["org_schedule:read"]);
      const write = await server.call("POST", "/org-schedule-fragments.create", {
        token: reader,
        body: { name: "X", ...YEAR, intervals: [] },
      });
      expect(write.status).toBe(403);
      expect(write.body).not.toHaveProperty("object_ids");
      const schedule = await server.call("POST", "/org-schedules.create", {
        token: reader,
        body: { name: "X", timezone: "UTC" },
      });
      expect(schedule.status).toBe(403);
      const none = await server.call("GET", "/org-schedules.list", {
        token: await server.token(["sla:read"]),
      });
      expect(none.status).toBe(403);
      expect(none.body).not.toHaveProperty("object_ids");
      for (const scope of ["org_schedule:write", "org_schedule:all"]) {
        const token = await server.token([scope]);
        await fragment({ name: scope }, token);
        const res = await server.call("POST", "/org-schedules.create", {
          token,
          body: { name: scope, timezone: "UTC" },
        });
        expect(res.status).toBe(201);
      }
    });

    it("answers unauthenticated without a token, and for a deactivated organization", async () => {
      const anonymous = await server.call("POST", "/org-schedule-fragments.create", {
        token: null,
        body: { name: "X", ...YEAR, intervals: [] },
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.type).toBe("unauthenticated");
      const other = await server.otherOrg();
      await server.store.setOrgStatus(other.org.id, "deactivated");
      const fragmentRes = await server.call("POST", "/org-schedule-fragments.create", {
        token: other.token,
        body: { name: "X", ...YEAR, intervals: [] },
      });
      expect(fragmentRes.body.type).toBe("unauthenticated");
      const list = await server.call("GET", "/org-schedules.list", { token: other.token });
      expect(list.body.type).toBe("unauthenticated");
      // org-schedules.create is a companion with the ordinary errors.
      const create = await server.call("POST", "/org-schedules.create", {
        token: other.token,
        body: { name: "X", timezone: "UTC" },
      });
      expect(create.body.type).toBe("dev_org_deactivated");
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
