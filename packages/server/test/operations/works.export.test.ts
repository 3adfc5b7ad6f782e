// works.export and works.list through real HTTP, on every database: each filter narrowing a small known data
// set, the scope rule for types, `first`, sorting, and paging over a few hundred works in both modes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevUser } from "../../src/store/types.js";
import { databases, startTestServer, type TestServer } from "../harness.js";
import {
  createDiagram,
  createPart,
  createStage,
  createUser,
  createWork,
  ok,
  tag,
  vista,
} from "../record-builders.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(databases)("works.export and works.list on %s", (database) => {
  describe("filters", () => {
    let server: TestServer;
    // Titles of the known works: w1 issue, w2 ticket, w3 task (closed), w4 issue, w5 ticket.
    const id: Record<string, { id: string; display_id: string }> = {};
    let p1: { id: string; display_id: string };
    let p2: { id: string; display_id: string };
    let u1: { id: string; display_id: string };
    let u2: { id: string; display_id: string };
    let u3: { id: string; display_id: string };
    let second: DevUser;
    let t1: { id: string; display_id: string };
    let t2: { id: string; display_id: string };
    let between: string;
    let beforeUpdate: string;
    let soon: string;

    beforeAll(async () => {
      server = await startTestServer(database);
      p1 = await createPart(server, "product", "P1");
      p2 = await createPart(server, "product", "P2");
      const admin = server.admin;
      second = await createUser(server, "Second");
      const third = await createUser(server, "Third");
      [u1, u2, u3] = [admin, second, third];
      t1 = await tag(server, "t1");
      t2 = await tag(server, "t2");
      await createStage(server, "triage", "open", 10);
      await createStage(server, "building", "in_progress", 20);
      await createStage(server, "finished", "closed", 30);
      const spec = { custom_schema_spec: { tenant_fragment: true } };
      soon = new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString();

      const w1 = await createWork(server, {
        type: "issue",
        title: "w1",
        applies_to_part: p1.id,
        owned_by: [u1.id],
        reported_by: [u2.id],
        tags: [{ id: t1.id }],
        stage: { name: "triage" },
        external_ref: "ext-1",
        custom_fields: { tnt__prio: "high", tnt__points: 3 },
        target_close_date: "2030-01-10T00:00:00.000Z",
        ...spec,
      });
      const w2 = await createWork(
        server,
        {
          type: "ticket",
          title: "w2",
          applies_to_part: p2.id,
          owned_by: [u2.id],
          reported_by: [u1.id],
          tags: [{ id: t2.id }, { id: t1.id }],
          stage: { name: "building" },
          external_ref: "ext-2",
          custom_fields: { tnt__prio: "low", tnt__points: 5 },
          target_close_date: soon,
          ...spec,
        },
        await server.token(["ticket:write"], { user: second }),
      );
      await pause(15);
      between = new Date().toISOString();
      await pause(15);
      const w3 = await createWork(server, {
        type: "task",
        title: "w3",
        applies_to_part: p1.id,
        owned_by: [u1.id, u3.id],
        stage: { name: "finished" },
        custom_fields: { tnt__prio: "high" },
        ...spec,
      });
      const w4 = await createWork(server, {
        type: "issue",
        title: "w4",
        applies_to_part: p2.id,
        owned_by: [u3.id],
      });
      const w5 = await createWork(server, { type: "ticket", title: "w5", applies_to_part: p1.id });
      await pause(15);
      beforeUpdate = new Date().toISOString();
      await pause(15);
      // w4 is changed later, by the third user.
      await ok(
        server,
        "/works.update",
        { id: w4.id, body: "changed" },
        await server.token(["issue:write"], { user: third }),
      );
      Object.assign(id, { w1, w2, w3, w4, w5 });
    });
    afterAll(async () => {
      expect(server.app.violations).toEqual([]);
      await server.close();
    });

    const exported = async (body: Record<string, unknown>, token?: string) => {
      const res = await server.call("POST", "/works.export", { body, ...(token ? { token } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Object.keys(res.body)).toEqual(["works"]);
      return (res.body.works as Array<{ title: string }>).map((work) => work.title).sort();
    };
    const listed = async (body: Record<string, unknown>) => {
      const res = await server.call("POST", "/works.list", { body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.works as Array<{ title: string }>).map((work) => work.title).sort();
    };
    const all = ["w1", "w2", "w3", "w4", "w5"];

    describe("works.export", () => {
      it("exports everything without filters", async () => {
        expect(await exported({})).toEqual(all);
      });
    });

    const cases: Array<[string, () => Record<string, unknown>, string[]]> = [
      ["type", () => ({ type: ["ticket", "task"] }), ["w2", "w3", "w5"]],
      ["applies_to_part by id", () => ({ applies_to_part: [p1.id] }), ["w1", "w3", "w5"]],
      ["applies_to_part by display id", () => ({ applies_to_part: [p2.display_id] }), ["w2", "w4"]],
      ["created_by", () => ({ created_by: [u2.id] }), ["w2"]],
      ["created_by by display id", () => ({ created_by: [u1.display_id] }), ["w1", "w3", "w4", "w5"]],
      ["modified_by", () => ({ modified_by: [u3.id] }), ["w4"]],
      ["owned_by", () => ({ owned_by: [u3.id] }), ["w3", "w4"]],
      ["owned_by, several", () => ({ owned_by: [u2.id, u3.display_id] }), ["w2", "w3", "w4"]],
      ["reported_by", () => ({ reported_by: [u1.id] }), ["w2"]],
      ["external_ref", () => ({ external_ref: ["ext-2", "ext-9"] }), ["w2"]],
      ["custom_fields, one", () => ({ custom_fields: { tnt__prio: "high" } }), ["w1", "w3"]],
      ["custom_fields, two", () => ({ custom_fields: { tnt__prio: "high", tnt__points: 3 } }), ["w1"]],
      ["custom_fields, absent", () => ({ custom_fields: { tnt__prio: null } }), ["w4", "w5"]],
      ["stage.name", () => ({ stage: { name: ["triage", "finished"] } }), ["w1", "w3"]],
      ["state", () => ({ state: ["closed"] }), ["w3"]],
      ["state, open ones", () => ({ state: ["open", "in_progress"] }), ["w1", "w2"]],
      ["tags", () => ({ tags: [t1.id] }), ["w1", "w2"]],
      ["tags by display id", () => ({ tags: [t2.display_id] }), ["w2"]],
      [
        "created_date range after",
        () => ({ created_date: { type: "range", after: between } }),
        ["w3", "w4", "w5"],
      ],
      [
        "created_date range before",
        () => ({ created_date: { type: "range", before: between } }),
        ["w1", "w2"],
      ],
      [
        "created_date preset",
        () => ({ created_date: { type: "preset", preset_type: "last_n_days", days: 0 } }),
        all,
      ],
      [
        "created_date preset ahead",
        () => ({ created_date: { type: "preset", preset_type: "next_n_days", days: 3 } }),
        all,
      ],
      ["modified_date range", () => ({ modified_date: { type: "range", after: beforeUpdate } }), ["w4"]],
      [
        "modified_date preset",
        () => ({ modified_date: { type: "preset", preset_type: "last_n_days", days: 1 } }),
        all,
      ],
      [
        "target_close_date range",
        () => ({
          target_close_date: { type: "range", after: "2030-01-01T00:00:00Z", before: "2030-01-10T00:00:00Z" },
        }),
        ["w1"],
      ],
      [
        "target_close_date preset",
        () => ({ target_close_date: { type: "preset", preset_type: "next_n_days", days: 3 } }),
        ["w2"],
      ],
      ["actual_close_date range", () => ({ actual_close_date: { type: "range", after: between } }), ["w3"]],
      [
        "actual_close_date preset",
        () => ({ actual_close_date: { type: "preset", preset_type: "last_n_days", days: 7 } }),
        ["w3"],
      ],
      ["several filters together", () => ({ type: ["issue"], applies_to_part: [p1.id] }), ["w1"]],
    ];
    it.each(cases)("narrows by %s", async (_name, body, expected) => {
      expect(await exported(body())).toEqual(expected);
      expect(await listed(body())).toEqual(expected);
    });

    it("narrows by vista: the works among the vista's items", async () => {
      const view = await vista(server, "Hot", [id.w1?.id as string, id.w3?.display_id as string, p1.id]);
      expect(await exported({ vista: view.id })).toEqual(["w1", "w3"]);
      expect(await listed({ vista: view.display_id })).toEqual(["w1", "w3"]);
      const empty = await vista(server, "Empty", []);
      expect(await exported({ vista: empty.id })).toEqual([]);
      const unknown = await server.call("POST", "/works.export", { body: { vista: "VISTA-99999" } });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ type: "invalid_id", field_name: "vista" });
      // Another user's vista is seen only when it is shared with the caller.
      const secondToken = await server.token(["vista:write", "issue:read"], { user: second });
      const theirs = await vista(server, "Theirs", [id.w1?.id as string], secondToken);
      const hidden = await server.call("POST", "/works.export", { body: { vista: theirs.id } });
      expect(hidden.body).toMatchObject({ type: "invalid_id", field_name: "vista" });
      expect(await exported({ vista: theirs.id }, secondToken)).toEqual(["w1"]);
      const shared = await ok(
        server,
        "/vistas.create",
        {
          name: "Shared",
          type: "curated",
          items: [{ id: id.w4?.id }],
          shared_with: [{ member: server.admin.id }],
        },
        secondToken,
      );
      expect(await exported({ vista: shared.vista.id })).toEqual(["w4"]);
    });

    it("takes the GET form with comma lists and dotted stage.name", async () => {
      const res = await server.call("GET", "/works.export?type=issue,ticket&stage.name=triage,building");
      expect(res.status).toBe(200);
      expect(res.body.works.map((work: { title: string }) => work.title).sort()).toEqual(["w1", "w2"]);
      const list = await server.call("GET", `/works.list?owned_by=${u3.display_id}&state=closed`);
      expect(list.body.works.map((work: { title: string }) => work.title)).toEqual(["w3"]);
    });

    it("refuses custom field filters it cannot compare", async () => {
      const res = await server.call("POST", "/works.export", {
        body: { custom_fields: { tnt__prio: ["a"] } },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ type: "invalid_field", field_name: "custom_fields.tnt__prio" });
      const name = await server.call("POST", "/works.list", { body: { custom_fields: { "bad-name": 1 } } });
      expect(name.body).toMatchObject({ type: "invalid_field", field_name: "custom_fields.bad-name" });
    });

    it("sorts by the fields sort_by names", async () => {
      const titles = async (sortBy: string[]) =>
        (await server.call("POST", "/works.export", { body: { sort_by: sortBy } })).body.works.map(
          (work: { title: string }) => work.title,
        );
      expect(await titles(["title:desc"])).toEqual(["w5", "w4", "w3", "w2", "w1"]);
      expect(await titles(["created_date:asc"])).toEqual(all);
      expect(await titles(["modified_date:desc"])).toEqual(["w4", "w5", "w3", "w2", "w1"]);
      expect(await titles(["type:asc", "title:desc"])).toEqual(["w4", "w1", "w3", "w5", "w2"]);
      const bad = await server.call("POST", "/works.export", { body: { sort_by: ["owner:asc"] } });
      expect(bad.body).toMatchObject({ type: "value_not_permitted", field_name: "sort_by.0" });
    });

    it("bounds `first` between 1 and 5000", async () => {
      expect(await exported({ first: 2, sort_by: ["title:asc"] })).toEqual(["w1", "w2"]);
      for (const first of [0, 5001]) {
        const res = await server.call("POST", "/works.export", { body: { first } });
        expect(res.status, String(first)).toBe(400);
        expect(res.body).toMatchObject({ type: "value_not_permitted", field_name: "first" });
      }
      const query = await server.call("GET", "/works.export?first=5001");
      expect(query.status).toBe(400);
      expect(query.body.field_name).toBe("first");
    });

    it("shows only the types the token may read; asking for another type is 403", async () => {
      const issueReader = await server.token(["issue:read"]);
      expect(await exported({}, issueReader)).toEqual(["w1", "w4"]);
      expect(await exported({ type: ["issue"] }, issueReader)).toEqual(["w1", "w4"]);
      const denied = await server.call("POST", "/works.export", {
        token: issueReader,
        body: { type: ["ticket"] },
      });
      expect(denied.status).toBe(403);
      expect(denied.body.type).toBe("forbidden");
      expect(denied.body.detail).toContain("ticket:read");
      const mixed = await server.call("GET", "/works.list?type=issue,task", { token: issueReader });
      expect(mixed.status).toBe(403);
      const two = await server.token(["ticket:write", "task:all"]);
      expect(await exported({}, two)).toEqual(["w2", "w3", "w5"]);
      const listedByTwo = await server.call("POST", "/works.list", {
        token: two,
        body: { owned_by: [u1.id] },
      });
      expect(listedByTwo.body.works.map((work: { title: string }) => work.title).sort()).toEqual([
        "w3",
        "w5",
      ]);
      const none = await server.call("POST", "/works.export", {
        token: await server.token(["tag:read"]),
        body: {},
      });
      expect(none.status).toBe(403);
    });
  });

  describe("as production sends it", () => {
    it("streams the export as read (no answer check), the same works as the checked answer", async () => {
      const server = await startTestServer(database, { validateResponses: false });
      try {
        const part = await createPart(server, "product", "Streamed");
        const made: string[] = [];
        for (let i = 0; i < 3; i++) {
          made.push(
            (await createWork(server, { type: "issue", title: `streamed ${i}`, applies_to_part: part.id }))
              .id,
          );
        }
        const answer = await fetch(`${server.url}/works.export?first=5000&sort_by=title:asc`, {
          headers: { authorization: `Bearer ${server.adminToken}` },
        });
        expect(answer.status).toBe(200);
        expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
        const body = (await answer.json()) as { works: Array<{ id: string }> };
        expect(body.works.map((work) => work.id)).toEqual(made);
      } finally {
        await server.close();
      }
    });
  });

  describe("volume", () => {
    let server: TestServer;
    const COUNT = 260;
    let titles: string[];

    beforeAll(async () => {
      server = await startTestServer(database);
      const part = await createPart(server, "product", "Bulk");
      const stage = await createStage(server, "bulk-start");
      await createDiagram(server, "task", [[stage.id, []]]);
      const types = ["issue", "ticket", "task"];
      titles = [];
      for (let i = 0; i < COUNT; i++) {
        const title = `bulk-${String(i).padStart(3, "0")}`;
        await createWork(server, { type: types[i % 3], title, applies_to_part: part.id });
        titles.push(title);
      }
    }, 120_000);
    afterAll(async () => {
      expect(server.app.violations).toEqual([]);
      await server.close();
    });

    const page = async (body: Record<string, unknown>) => {
      const res = await server.call("POST", "/works.list", { body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { works: Array<{ title: string }>; next_cursor?: string; prev_cursor?: string };
    };

    describe("works.list", () => {
      it("pages forwards through every work, then back with prev_cursor", async () => {
        const seen: string[] = [];
        const cursors: string[] = [];
        let cursor: string | undefined;
        let first = true;
        do {
          const res = await page({ limit: 40, ...(cursor ? { cursor } : {}) });
          if (first) expect(res.prev_cursor).toBeUndefined();
          else expect(res.prev_cursor).toEqual(expect.any(String));
          first = false;
          seen.push(...res.works.map((work) => work.title));
          cursor = res.next_cursor;
          if (cursor) cursors.push(cursor);
        } while (cursor);
        expect(seen).toEqual(titles);
        expect(cursors).toHaveLength(Math.ceil(COUNT / 40) - 1);

        // From the third page, prev_cursor in `before` mode gives the second page.
        const third = await page({ limit: 40, cursor: cursors[1] });
        expect(third.works[0]?.title).toBe(titles[80]);
        const back = await page({ limit: 40, mode: "before", cursor: third.prev_cursor });
        expect(back.works.map((work) => work.title)).toEqual(titles.slice(40, 80));
      });

      it("pages backwards from the end in `before` mode", async () => {
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const res = await page({ limit: 50, mode: "before", ...(cursor ? { cursor } : {}) });
          seen.unshift(...res.works.map((work) => work.title));
          cursor = res.prev_cursor;
          pages += 1;
        } while (cursor);
        expect(seen).toEqual(titles);
        expect(pages).toBe(Math.ceil(COUNT / 50));
      });

      it("pages a filtered, sorted list in both modes", async () => {
        const tickets = titles.filter((_, i) => i % 3 === 1).reverse();
        const forward: string[] = [];
        let cursor: string | undefined;
        do {
          const res = await page({
            type: ["ticket"],
            sort_by: ["title:desc"],
            limit: 25,
            ...(cursor ? { cursor } : {}),
          });
          forward.push(...res.works.map((work) => work.title));
          cursor = res.next_cursor;
        } while (cursor);
        expect(forward).toEqual(tickets);
        const backward: string[] = [];
        do {
          const res = await page({
            type: ["ticket"],
            sort_by: ["title:desc"],
            limit: 25,
            mode: "before",
            ...(cursor ? { cursor } : {}),
          });
          backward.unshift(...res.works.map((work) => work.title));
          cursor = res.prev_cursor;
        } while (cursor);
        expect(backward).toEqual(tickets);
        const stale = await server.call("POST", "/works.list", {
          body: { type: ["issue"], cursor: (await page({ type: ["ticket"], limit: 5 })).next_cursor },
        });
        expect(stale.status).toBe(400);
        expect(stale.body).toMatchObject({ type: "invalid_field", field_name: "cursor" });
      });
    });

    it("exports 50 by default and up to `first`", async () => {
      const byDefault = await server.call("POST", "/works.export", { body: {} });
      expect(byDefault.body.works.map((work: { title: string }) => work.title)).toEqual(titles.slice(0, 50));
      const many = await server.call("GET", "/works.export?first=5000");
      expect(many.body.works).toHaveLength(COUNT);
      const some = await server.call("POST", "/works.export", { body: { first: 120, type: ["task"] } });
      expect(some.body.works).toHaveLength(titles.filter((_, i) => i % 3 === 2).length);
      expect(
        some.body.works.every((work: { stage?: { name: string } }) => work.stage?.name === "bulk-start"),
      ).toBe(true);
    });
  });
});
