// Compatibility with the platform the service stands in for: each of the interface's operations is called the
// way the platform's clients and contract write requests (the platform's field names, GET query arrays
// comma-separated, nested filters dotted, the platform's method where it publishes only one) against a seeded
// server. Every answer is checked three ways: its decoded body, the contract (validated here explicitly, as
// well as by the server in-process), and the shape the platform's clients decode (its required members,
// discriminators and union members, from the platform facts sheet).
//
// This file: works, parts, vistas and artifacts.
import { describe, expect, it } from "vitest";
import { databases } from "../harness.js";
import { expectUser, type Json, platformSession, query, type Work } from "./session.js";

describe.each(databases)("the platform's requests on %s: works, parts, vistas, artifacts", (database) => {
  const s = platformSession(database);
  const { call, ok } = s;

  describe("works", () => {
    it("GET /works.export filters tickets by dotted ticket.* arrays and issues by issue.*, others pass", async () => {
      const body = await ok(
        "GET",
        `/works.export?${query({
          type: ["issue", "ticket", "task"],
          "ticket.severity": ["blocker", "high"],
          "issue.priority": ["p0", "p1"],
          "staged_info.is_staged": false,
          first: 500,
        })}`,
      );
      const got = body.works as Work[];
      const want = s.works.filter(
        (w) =>
          (w.type === "ticket" && ["blocker", "high"].includes(String(w.severity))) ||
          (w.type === "issue" && ["p0", "p1"].includes(String(w.priority))) ||
          w.type === "task",
      );
      expect(want.some((w) => w.type === "ticket")).toBe(true);
      expect(want.some((w) => w.type === "issue")).toBe(true);
      expect(got.map((w) => w.id).sort()).toEqual(want.map((w) => w.id).sort());
    });

    it("POST /works.export takes nested ticket, issue, staged_info and sync_metadata filters", async () => {
      const ticket = s.works.find((w) => w.type === "ticket") as Work & { rev_org: { id: string } };
      const body = await ok("POST", "/works.export", {
        type: ["ticket"],
        ticket: { rev_org: [ticket.rev_org.id], needs_response: ticket.needs_response as boolean },
        first: 500,
      });
      const got = body.works as Array<Work & { rev_org: { id: string } }>;
      const want = s.works.filter(
        (w) =>
          w.type === "ticket" &&
          (w.rev_org as { id: string }).id === ticket.rev_org.id &&
          w.needs_response === ticket.needs_response,
      );
      expect(got.map((w) => w.id).sort()).toEqual(want.map((w) => w.id).sort());

      const planned = await ok("POST", "/works.export", {
        type: ["issue"],
        issue: { target_start_date: { type: "preset", preset_type: "next_n_days", days: 30 } },
        first: 500,
      });
      const startOfToday = new Date(new Date().toISOString().slice(0, 10)).getTime();
      for (const issue of planned.works as Work[]) {
        expect(Date.parse(String(issue.target_start_date))).toBeGreaterThanOrEqual(startOfToday);
      }
      expect((planned.works as Work[]).length).toBeLessThan(s.works.filter((w) => w.type === "issue").length);

      // Nothing in the seeded organization came from another system or is staged.
      const synced = await ok("POST", "/works.export", { sync_metadata: { origin_system: ["jira"] } });
      expect(synced.works).toEqual([]);
      const staged = await ok("POST", "/works.export", { staged_info: { is_staged: true } });
      expect(staged.works).toEqual([]);
    });

    it("filters tickets by ticket.is_frozen, and names `days` when a preset date filter lacks it", async () => {
      const tickets = s.works.filter((w) => w.type === "ticket");
      const open = await ok(
        "GET",
        `/works.export?${query({ type: ["ticket"], "ticket.is_frozen": false, first: 500 })}`,
      );
      expect((open.works as Work[]).map((w) => w.id).sort()).toEqual(tickets.map((w) => w.id).sort());
      const frozen = await ok("POST", "/works.export", { type: ["ticket"], ticket: { is_frozen: true } });
      expect(frozen.works).toEqual([]);
      const created = (
        await ok(
          "POST",
          "/works.create",
          {
            type: "ticket",
            title: "Printer on fire",
            owned_by: [s.server.admin.id],
            applies_to_part: ((tickets[0] as Work).applies_to_part as Json).id,
          },
          201,
        )
      ).work as Json;
      expect(created.is_frozen).toBe(false);

      const noDays = await call("POST", "/works.export", {
        issue: { target_start_date: { type: "preset", preset_type: "next_n_days" } },
      });
      expect(noDays.status).toBe(400);
      expect(noDays.body).toMatchObject({ field_name: "issue.target_start_date.days" });
    });

    it("answers works with the members the platform's clients decode", () => {
      for (const work of s.works) {
        expect(work, work.display_id).toMatchObject({
          type: expect.any(String),
          id: expect.any(String),
          title: expect.any(String),
          owned_by: expect.any(Array),
        });
        for (const owner of work.owned_by as unknown[]) expectUser(owner, work.display_id);
      }
      for (const ticket of s.works.filter((w) => w.type === "ticket")) {
        expect(ticket).toMatchObject({
          rev_org: { type: "rev_org", id: expect.any(String) },
          group: { id: expect.any(String) },
          channels: expect.any(Array),
          is_frozen: false,
          needs_response: expect.any(Boolean),
          sentiment: { id: expect.any(Number), label: expect.any(String), ordinal: expect.any(Number) },
          severity: expect.stringMatching(/^(blocker|high|low|medium)$/),
        });
      }
    });

    it("POST /works.delete deletes a work by id", async () => {
      const victim = s.works.find((w) => w.type === "task") as Work;
      expect(await ok("POST", "/works.delete", { id: victim.id })).toEqual({});
      const gone = await call("POST", "/works.delete", { id: victim.id });
      expect(gone.status).toBe(404);
      expect(gone.body.type).toBe("not_found");
    });
  });

  describe("parts", () => {
    it("POST /parts.create takes an enhancement's planned dates and answers them", async () => {
      const product = (await ok("POST", "/parts.list", { type: ["product"] })).parts as Json[];
      const owner = s.server.admin.id;
      const body = await ok(
        "POST",
        "/parts.create",
        {
          type: "enhancement",
          name: "Offline mode",
          owned_by: [owner],
          parent_part: [product[0]?.id],
          target_start_date: "2027-02-01T00:00:00Z",
          target_close_date: "2027-03-31T00:00:00Z",
        },
        201,
      );
      expect(body.part).toMatchObject({
        type: "enhancement",
        name: "Offline mode",
        owned_by: [{ id: owner }],
        target_start_date: "2027-02-01T00:00:00.000Z",
        target_close_date: "2027-03-31T00:00:00.000Z",
        state_v2: "open",
        stage_v2: {},
      });
      const got = await ok("POST", "/parts.get", { id: (body.part as Json).id });
      expect(got.part).toEqual(body.part);
      // The part has no children: parts.delete takes it.
      expect(await ok("POST", "/parts.delete", { id: (body.part as Json).id })).toEqual({});
    });

    it("POST /parts.create refuses planned dates on a part that is not an enhancement, naming the field", async () => {
      const res = await call("POST", "/parts.create", {
        type: "product",
        name: "Dated product",
        owned_by: [s.server.admin.id],
        target_close_date: "2027-03-31T00:00:00Z",
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ type: "invalid_field", field_name: "target_close_date" });
    });

    it("POST /parts.get answers every part type with name and owners", async () => {
      const parts = (await ok("POST", "/parts.list", { limit: 100 })).parts as Json[];
      for (const type of ["product", "capability", "feature", "enhancement"]) {
        const part = parts.find((p) => p.type === type) as Json;
        const body = await ok("POST", "/parts.get", { id: part.id });
        expect(body.part).toMatchObject({
          type,
          id: part.id,
          name: expect.any(String),
          owned_by: [expect.any(Object)],
        });
      }
    });
  });

  describe("vistas", () => {
    it("POST /vistas.list answers every kind with its union members", async () => {
      const body = await ok("POST", "/vistas.list", {
        type: ["curated", "dynamic", "grouped"],
        object_type: ["works"],
      });
      const vistas = body.vistas as Json[];
      expect(new Set(vistas.map((v) => v.type))).toEqual(new Set(["curated", "dynamic", "grouped"]));
      for (const vista of vistas) {
        expect(vista).toMatchObject({ id: expect.any(String), name: expect.any(String) });
        if (vista.type === "curated") {
          expect(vista).not.toHaveProperty("filter_type");
          for (const item of vista.items as Json[]) {
            // Issues and tickets need owned_by and title on the platform.
            expect(item).toMatchObject({
              type: expect.any(String),
              id: expect.any(String),
              title: expect.any(String),
            });
            expect(item.owned_by).toEqual(expect.any(Array));
          }
        } else {
          expect(vista.filter_type).toBe("works");
        }
        if (vista.type === "dynamic") {
          expect(vista.filter).toEqual({ type: ["ticket"], ticket: { severity: ["blocker", "high"] } });
        }
      }
    });
  });

  describe("artifacts", () => {
    it("POST /artifacts.get answers every file of a seeded work with its version", async () => {
      const files = s.works.flatMap((w) => (w.artifacts ?? []) as Json[]);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const body = await ok("POST", "/artifacts.get", { id: file.id });
        expect(body.artifact).toMatchObject({
          id: file.id,
          file: { name: expect.any(String), type: "text/plain" },
        });
        expect(body.version).toMatchObject({ version: "2", timestamp: expect.any(String) });
      }
      const first = await ok("POST", "/artifacts.get", { id: files[0]?.id, version: "1" });
      expect((first.version as Json).version).toBe("1");
    });

    it("POST /artifacts.get answers a prepared artifact without a version until its upload", async () => {
      const prepared = (
        await s.server.call("POST", "/artifacts.prepare", {
          body: { file_name: "invoice.pdf", file_type: "application/pdf" },
        })
      ).body as Json;
      const body = await ok("POST", "/artifacts.get", { id: prepared.id });
      expect(body).toEqual({
        artifact: expect.objectContaining({
          id: prepared.id,
          file: { name: "invoice.pdf", type: "application/pdf" },
        }),
      });
    });
  });

  it("answered only what the contract describes (checked here and by the server)", () => {
    s.expectAnswered([
      "works.export",
      "works.create",
      "works.delete",
      "parts.create",
      "parts.get",
      "parts.delete",
      "vistas.list",
      "artifacts.get",
    ]);
  });
});
