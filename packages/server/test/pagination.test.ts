// Cursor pagination through tags.list over a few hundred records: every record exactly once, in order,
// forwards and backwards, with sort_by; cursors absent at the ends; a cursor is bound to its filters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTag } from "./fixtures.js";
import { databases, startTestServer, type TestServer } from "./harness.js";

const COUNT = 230;

type Page = {
  tags: Array<{ id: string; name: string; created_date: string }>;
  next_cursor?: string;
  prev_cursor?: string;
};

describe.each(databases)("tags.list pagination on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
    // Names are unique (the store enforces it for tags) and in another order than creation.
    for (let i = 0; i < COUNT; i++) {
      await createTag(server.store, server.actor, `tag-${String((i * 37) % COUNT).padStart(3, "0")}`);
    }
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  async function walk(
    query: Record<string, unknown>,
    direction: "after" | "before",
  ): Promise<{ pages: Page[]; ids: string[] }> {
    const pages: Page[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 1000; guard++) {
      const body = { ...query, mode: direction, ...(cursor ? { cursor } : {}) };
      const res = await server.call("POST", "/tags.list", { body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const page = res.body as Page;
      pages.push(page);
      cursor = direction === "after" ? page.next_cursor : page.prev_cursor;
      if (!cursor) break;
    }
    const ordered = direction === "after" ? pages : [...pages].reverse();
    return { pages, ids: ordered.flatMap((page) => page.tags.map((tag) => tag.id)) };
  }

  it.each([
    [[] as string[], "created_date asc (default)"],
    [["name:asc"], "name asc"],
    [["name:desc", "created_date:asc"], "name desc then created_date"],
    [["created_date:desc"], "created_date desc"],
  ])(
    "walks every tag once forwards and backwards with sort_by %j (%s)",
    async (sortBy) => {
      const query = { limit: 17, ...(sortBy.length ? { sort_by: sortBy } : {}) };
      const forwards = await walk(query, "after");
      const backwards = await walk(query, "before");
      expect(forwards.ids).toHaveLength(COUNT);
      expect(new Set(forwards.ids).size).toBe(COUNT);
      expect(backwards.ids).toEqual(forwards.ids);

      // Order follows the sort.
      const tags = forwards.pages.flatMap((page) => page.tags);
      const [field, direction] = (sortBy[0] ?? "created_date:asc").split(":") as [
        "name" | "created_date",
        string,
      ];
      for (let i = 1; i < tags.length; i++) {
        const a = tags[i - 1]?.[field] as string;
        const b = tags[i]?.[field] as string;
        if (direction === "asc") expect(a <= b, `${a} then ${b}`).toBe(true);
        else expect(a >= b, `${a} then ${b}`).toBe(true);
      }
      // Cursors are absent exactly at the ends.
      expect(forwards.pages[0]?.prev_cursor).toBeUndefined();
      expect(forwards.pages.at(-1)?.next_cursor).toBeUndefined();
      for (const page of forwards.pages.slice(1)) expect(page.prev_cursor).toEqual(expect.any(String));
      for (const page of forwards.pages.slice(0, -1)) expect(page.next_cursor).toEqual(expect.any(String));
      expect(backwards.pages[0]?.next_cursor).toBeUndefined();
      expect(backwards.pages.at(-1)?.prev_cursor).toBeUndefined();
    },
    120_000,
  );

  it("steps back from a page with its prev_cursor to the page before", async () => {
    const first = (await server.call("POST", "/tags.list", { body: { limit: 25 } })).body as Page;
    const second = (
      await server.call("POST", "/tags.list", { body: { limit: 25, cursor: first.next_cursor } })
    ).body as Page;
    const back = (
      await server.call("POST", "/tags.list", {
        body: { limit: 25, cursor: second.prev_cursor, mode: "before" },
      })
    ).body as Page;
    expect(back.tags.map((t) => t.id)).toEqual(first.tags.map((t) => t.id));
    const fifty = (await server.call("POST", "/tags.list", { body: { limit: 50 } })).body as Page;
    expect(fifty.tags.slice(25).map((t) => t.id)).toEqual(second.tags.map((t) => t.id));
  });

  it("pages through GET with the same cursors", async () => {
    const first = (await server.call("GET", "/tags.list?limit=40&sort_by=name:asc")).body as Page;
    const second = await server.call(
      "GET",
      `/tags.list?limit=40&sort_by=name:asc&cursor=${first.next_cursor}`,
    );
    expect(second.status).toBe(200);
    const ids = new Set([...first.tags, ...(second.body as Page).tags].map((t) => t.id));
    expect(ids.size).toBe(80);
  });

  it("refuses a cursor reused with other filters or another sort", async () => {
    const first = (await server.call("POST", "/tags.list", { body: { limit: 10 } })).body as Page;
    const otherSort = await server.call("POST", "/tags.list", {
      body: { limit: 10, cursor: first.next_cursor, sort_by: ["name:asc"] },
    });
    expect(otherSort.status).toBe(400);
    expect(otherSort.body).toMatchObject({ type: "invalid_field", field_name: "cursor" });
    const otherFilter = await server.call("POST", "/tags.list", {
      body: { limit: 10, cursor: first.next_cursor, name: ["tag-001"] },
    });
    expect(otherFilter.status).toBe(400);
    const garbage = await server.call("GET", "/tags.list?cursor=not-a-cursor");
    expect(garbage.status).toBe(400);
    expect(garbage.body.field_name).toBe("cursor");
  });

  it("refuses to sort by a field that is not sortable", async () => {
    const res = await server.call("POST", "/tags.list", { body: { sort_by: ["colour:asc"] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: "value_not_permitted", field_name: "sort_by.0" });
  });

  it("answers a filtered list with no cursors when everything fits", async () => {
    const res = (await server.call("GET", "/tags.list?name=tag-001,tag-002")).body as Page;
    expect(res.tags.map((t) => t.name).sort()).toEqual(["tag-001", "tag-002"]);
    expect(res.next_cursor).toBeUndefined();
    expect(res.prev_cursor).toBeUndefined();
  });
});
