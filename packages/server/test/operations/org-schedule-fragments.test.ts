// Organization schedule fragments through real HTTP: the range rules of fragments and region codes, on every
// database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

const YEAR = { from: "2027-01-01T00:00:00.000Z", to: "2028-01-01T00:00:00.000Z" };

describe.each(databases)("org schedule fragments on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("org-schedule-fragments.create", () => {
    it("creates a draft fragment with intervals completed, region codes as sent and no object_version", async () => {
      const res = await server.call("POST", "/org-schedule-fragments.create", {
        body: {
          name: "Public holidays 2027 (Germany)",
          from: "2027-01-01T01:00:00+01:00",
          to: YEAR.to,
          region_codes: ["DE", "AT", "419"],
          intervals: [
            { name: "New Year's Day", from: YEAR.from, is_excluded: true },
            {
              name: "Christmas",
              from: "2027-12-24T00:00:00.000Z",
              to: "2027-12-27T00:00:00.000Z",
              is_excluded: true,
            },
            { name: "Last hours", from: "2027-12-31T00:00:00.000Z" },
          ],
        },
      });
      expect(res.status).toBe(201);
      const created = res.body.org_schedule_fragment;
      expect(created).toMatchObject({
        name: "Public holidays 2027 (Germany)",
        from: YEAR.from,
        to: YEAR.to,
        region_codes: ["DE", "AT", "419"],
        status: "draft",
        created_by: { id: server.admin.id },
        intervals: [
          { name: "New Year's Day", from: YEAR.from, to: "2027-01-02T00:00:00.000Z", is_excluded: true },
          { name: "Christmas", from: "2027-12-24T00:00:00.000Z", to: "2027-12-27T00:00:00.000Z" },
          // Its default end is the fragment's end: still inside the range.
          { name: "Last hours", from: "2027-12-31T00:00:00.000Z", to: YEAR.to },
        ],
      });
      expect(created.display_id).toMatch(/^SCHEDFRAG-\d+$/);
      expect(created).not.toHaveProperty("object_version");
      expect(created).toHaveProperty("created_date");
    });

    it("refuses a range that does not end after it starts, naming `to`", async () => {
      for (const to of [YEAR.from, "2026-06-01T00:00:00.000Z"]) {
        const res = await server.call("POST", "/org-schedule-fragments.create", {
          body: { name: "Backwards", from: YEAR.from, to, intervals: [] },
        });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ type: "value_not_permitted", field_name: "to" });
      }
    });

    it("refuses intervals outside [from, to), naming the interval's field", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: "Before", from: "2026-12-31T00:00:00.000Z" }, "intervals.1.from"],
        [{ name: "At the end", from: YEAR.to }, "intervals.1.from"],
        [
          { name: "Too long", from: "2027-12-01T00:00:00.000Z", to: "2028-01-02T00:00:00.000Z" },
          "intervals.1.to",
        ],
        // One day by default: past the fragment's end.
        [{ name: "Default end", from: "2027-12-31T12:00:00.000Z" }, "intervals.1.to"],
        [
          { name: "Backwards", from: "2027-05-02T00:00:00.000Z", to: "2027-05-01T00:00:00.000Z" },
          "intervals.1.to",
        ],
      ];
      for (const [interval, field] of cases) {
        const res = await server.call("POST", "/org-schedule-fragments.create", {
          body: {
            name: "Bad",
            ...YEAR,
            intervals: [{ name: "Fine", from: "2027-03-01T00:00:00.000Z" }, interval],
          },
        });
        expect(res.status, interval.name as string).toBe(400);
        expect(res.body, interval.name as string).toMatchObject({
          type: "value_not_permitted",
          field_name: field,
        });
      }
    });

    it("refuses region codes that are not CLDR codes", async () => {
      for (const code of ["de", "DEU", "1", "U1", ""]) {
        const res = await server.call("POST", "/org-schedule-fragments.create", {
          body: { name: "Region", ...YEAR, intervals: [], region_codes: ["US", code] },
        });
        expect(res.status, code).toBe(400);
        expect(res.body).toMatchObject({ type: "value_not_permitted", field_name: "region_codes.1" });
      }
    });

    it("refuses missing fields, malformed dates and unknown interval fields", async () => {
      const missing = await server.call("POST", "/org-schedule-fragments.create", {
        body: { name: "X", from: YEAR.from, intervals: [] },
      });
      expect(missing.body).toMatchObject({ type: "missing_required_field", field_name: "to" });
      const date = await server.call("POST", "/org-schedule-fragments.create", {
        body: { name: "X", from: "yesterday", to: YEAR.to, intervals: [] },
      });
      expect(date.body).toMatchObject({ type: "value_not_permitted", field_name: "from" });
      const extra = await server.call("POST", "/org-schedule-fragments.create", {
        body: { name: "X", ...YEAR, intervals: [{ name: "I", from: YEAR.from, hours: 3 }] },
      });
      expect(extra.body).toMatchObject({ type: "invalid_field", field_name: "intervals.0.hours" });
      const empty = await server.call("POST", "/org-schedule-fragments.create", {
        body: { name: "", ...YEAR, intervals: [] },
      });
      expect(empty.body).toMatchObject({ type: "value_not_permitted", field_name: "name" });
    });
  });
});
