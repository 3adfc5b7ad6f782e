// The store's keyset pages and cursors, on every database.
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor, Filter, Page, SortKey, StoredRecord } from "../../src/store/types.js";
import { describeStores } from "./suite.js";

/** The chunks of findRecordJson's answer, joined. */
async function whole(answer: Promise<Iterable<Buffer> | AsyncIterable<Buffer>>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of await answer) parts.push(chunk);
  return Buffer.concat(parts);
}

describeStores("store pagination", (env) => {
  const { newActor, work, expectStoreError } = env;

  describe("pagination", () => {
    const COUNT = 300;
    const LIMIT = 17;
    let actor: Actor;
    /** Creation order of each record: the order of seq, the store's tie-breaker. */
    const created = new Map<string, number>();
    const records: Array<StoredRecord<{ group?: number; bucket: string }>> = [];

    beforeAll(async () => {
      actor = await newActor();
      const other = await newActor();
      await env.store.transaction(async (tx) => {
        for (let i = 0; i < COUNT; i++) {
          const data = { bucket: `b${i % 3}`, ...(i % 10 === 0 ? {} : { group: i % 4 }) };
          // Distinct labels, in an order unrelated to creation.
          const label = `item-${String((i * 37) % COUNT).padStart(3, "0")}`;
          const record = await tx.createRecord(actor, {
            kind: "work",
            idType: "issue",
            prefix: "ISS",
            label,
            data,
          });
          created.set(record.id, i);
          records.push(record);
        }
        // Other families and organizations never show up.
        await tx.createRecord(actor, { kind: "part", idType: "product", prefix: "PROD", data: {} });
        await tx.createRecord(other, {
          kind: "work",
          idType: "issue",
          prefix: "ISS",
          data: { bucket: "b0" },
        });
      });
    });

    /** The expected order, computed here from the same rules the store applies. */
    function expectedOrder(
      sort: SortKey[] | undefined,
      keep: (r: (typeof records)[number]) => boolean = () => true,
    ) {
      const keys = sort ?? [{ path: "created_date", direction: "asc" }];
      const value = (r: (typeof records)[number], key: SortKey): string | number => {
        if (key.path === "label" || key.path === "created_date") return r[key.path];
        const v = (r.data as unknown as Record<string, unknown>)[key.path];
        if (key.type === "number") return typeof v === "number" ? v : -Number.MAX_VALUE;
        return typeof v === "string" ? v : "";
      };
      const last = keys[keys.length - 1]?.direction ?? "asc";
      return records
        .filter(keep)
        .sort((a, b) => {
          for (const key of keys) {
            const x = value(a, key);
            const y = value(b, key);
            if (x !== y) return (x < y ? -1 : 1) * (key.direction === "asc" ? 1 : -1);
          }
          return ((created.get(a.id) ?? 0) - (created.get(b.id) ?? 0)) * (last === "asc" ? 1 : -1);
        })
        .map((r) => r.id);
    }

    async function walk(query: { sort?: SortKey[]; filter?: Filter }, mode: "after" | "before") {
      const pages: Array<Page<object>> = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await env.store.listRecords(actor.orgId, "work", {
          ...query,
          limit: LIMIT,
          mode,
          cursor,
        });
        pages.push(page);
        cursor = mode === "after" ? page.next_cursor : page.prev_cursor;
        if (!cursor) break;
        expect(pages.length).toBeLessThan(100);
      }
      // Backwards, the pages arrive last first: put them in list order.
      if (mode === "before") pages.reverse();
      return pages;
    }

    function checkPages(pages: Array<Page<object>>, expected: string[]) {
      const ids = pages.flatMap((p) => p.items.map((r) => r.id));
      expect(new Set(ids).size).toBe(ids.length); // no duplicates
      expect(ids).toEqual(expected); // no gaps, right order
      expect(pages).toHaveLength(Math.ceil(expected.length / LIMIT));
      pages.forEach((page, i) => {
        expect(page.items.length).toBeGreaterThan(0);
        // Cursors are there exactly when something lies that way.
        expect(page.prev_cursor === undefined).toBe(i === 0);
        expect(page.next_cursor === undefined).toBe(i === pages.length - 1);
      });
    }

    const sorts: Array<[string, SortKey[] | undefined]> = [
      ["the default order", undefined],
      ["label asc", [{ path: "label", direction: "asc" }]],
      ["created_date desc", [{ path: "created_date", direction: "desc" }]],
      ["a number with many equal and missing values", [{ path: "group", direction: "asc", type: "number" }]],
      [
        "mixed directions over equal values",
        [
          { path: "bucket", direction: "desc" },
          { path: "group", direction: "asc", type: "number" },
        ],
      ],
      ["a number descending", [{ path: "group", direction: "desc", type: "number" }]],
    ];

    for (const [name, sort] of sorts) {
      it(`walks every page forwards and backwards, sorted by ${name}`, async () => {
        const expected = expectedOrder(sort);
        expect(expected).toHaveLength(COUNT);
        checkPages(await walk({ sort }, "after"), expected);
        checkPages(await walk({ sort }, "before"), expected);
      });
    }

    it("pages through a filtered list", async () => {
      const filter: Filter = { op: "in", path: "group", values: [1, 2] };
      const sort: SortKey[] = [{ path: "label", direction: "desc" }];
      const expected = expectedOrder(sort, (r) => r.data.group === 1 || r.data.group === 2);
      checkPages(await walk({ sort, filter }, "after"), expected);
      checkPages(await walk({ sort, filter }, "before"), expected);
    });

    it("goes back to the same page with prev_cursor", async () => {
      const sort: SortKey[] = [{ path: "group", direction: "asc", type: "number" }];
      const first = await env.store.listRecords(actor.orgId, "work", { sort, limit: LIMIT });
      const second = await env.store.listRecords(actor.orgId, "work", {
        sort,
        limit: LIMIT,
        cursor: first.next_cursor,
      });
      const back = await env.store.listRecords(actor.orgId, "work", {
        sort,
        limit: LIMIT,
        mode: "before",
        cursor: second.prev_cursor,
      });
      expect(back.items.map((r) => r.id)).toEqual(first.items.map((r) => r.id));
      expect(back.prev_cursor).toBeUndefined();
      expect(back.next_cursor).toBeDefined();
    });

    it("finds records in sort order up to a limit", async () => {
      const sort: SortKey[] = [{ path: "label", direction: "asc" }];
      const found = await env.store.findRecords(actor.orgId, "work", { sort, limit: 25 });
      expect(found.map((r) => r.id)).toEqual(expectedOrder(sort).slice(0, 25));
      expect(await env.store.countRecords(actor.orgId, "work")).toBe(COUNT);
    });

    it("gives the same pages with each document as its stored JSON", async () => {
      const sort: SortKey[] = [{ path: "label", direction: "desc" }];
      const filter: Filter = { op: "eq", path: "bucket", value: "b2" };
      let cursor: string | undefined;
      let pages = 0;
      do {
        const query = { sort, filter, limit: LIMIT, ...(cursor ? { cursor } : {}) };
        const records: Page<object> = await env.store.listRecords(actor.orgId, "work", query);
        const json = await env.store.listRecordJson(actor.orgId, "work", query);
        expect(json.items.map((item) => JSON.parse(item))).toEqual(records.items.map((r) => r.data));
        expect([json.next_cursor, json.prev_cursor]).toEqual([records.next_cursor, records.prev_cursor]);
        cursor = records.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(Math.ceil(COUNT / 3 / LIMIT));
      const record = records[5] as (typeof records)[number];
      for (const id of [record.id, record.display_id]) {
        const found = await env.store.getRecordJson(actor.orgId, ["work"], id);
        expect(found && { ...found, json: JSON.parse(found.json) }).toEqual({
          id: record.id,
          kind: "work",
          subtype: record.subtype,
          json: record.data,
        });
      }
      expect(await env.store.getRecordJson(actor.orgId, ["part"], record.id)).toBeUndefined();
    });

    it("finds the same documents as UTF-8 JSON bytes, byte for byte", async () => {
      const sort: SortKey[] = [{ path: "label", direction: "asc" }];
      const filter: Filter = { op: "eq", path: "bucket", value: "b1" };
      const query = { sort, filter, limit: 40 };
      const found = await env.store.findRecords(actor.orgId, "work", query);
      const bytes = await whole(env.store.findRecordJson(actor.orgId, "work", query, "works"));
      expect(JSON.parse(bytes.toString("utf8"))).toEqual({ works: found.map((r) => r.data) });
      // Text beyond ASCII comes back as its UTF-8 encoding, not as one byte per character.
      const other = await newActor();
      const data = { title: "Café ☕ 🚀 — naïve", note: 'a "quote" and a \\ kept' };
      const stored = await env.store.createRecord(other, {
        kind: "work",
        idType: "issue",
        prefix: "ISS",
        data,
      });
      const only = await whole(env.store.findRecordJson(other.orgId, "work", { limit: 5 }, "items"));
      expect(JSON.parse(only.toString("utf8"))).toEqual({ items: [stored.data] });
      expect(stored.data).toMatchObject(data);
      expect(only.byteLength).toBeGreaterThan(only.toString("utf8").length);
      // Nothing found: an empty array.
      const none = { op: "eq", path: "bucket", value: "none" } as const;
      const empty = await whole(
        env.store.findRecordJson(actor.orgId, "work", { filter: none, limit: 5 }, "works"),
      );
      expect(empty.toString("utf8")).toBe('{"works":[]}');
    });

    it("joins the documents in the order of every sort, as the stored text of each", async () => {
      const sorts: SortKey[][] = [
        [],
        [{ path: "label", direction: "desc" }],
        [{ path: "group", direction: "asc", type: "number" }],
        [
          { path: "bucket", direction: "desc" },
          { path: "created_date", direction: "asc" },
        ],
      ];
      for (const sort of sorts) {
        for (const limit of [1, 7, 1000]) {
          const query = { sort, limit };
          const found = await env.store.findRecords(actor.orgId, "work", query);
          const texts = await Promise.all(
            found.map(async (r) => (await env.store.getRecordJson(actor.orgId, ["work"], r.id))?.json),
          );
          const joined = await whole(env.store.findRecordJson(actor.orgId, "work", query, "works"));
          expect(joined.toString("utf8")).toBe(`{"works":[${texts.join(",")}]}`);
        }
      }
    });

    it("reads an answer of several chunks in order, and can be ended early", async () => {
      const many = await newActor();
      const made: string[] = [];
      for (let i = 0; i < 1203; i++) {
        const record = await env.store.createRecord(many, {
          kind: "work",
          idType: "issue",
          prefix: "ISS",
          data: { title: `n${i}`, n: i },
        });
        made.push(record.id);
      }
      const query = { sort: [{ path: "n", direction: "desc", type: "number" }] as SortKey[], limit: 5000 };
      const answer = await env.store.findRecordJson(many.orgId, "work", query, "works");
      const chunks: Buffer[] = [];
      for await (const chunk of answer) chunks.push(chunk);
      // On a SQLite file, 500 documents a chunk (1,203: three); elsewhere one chunk, joined by the database.
      const { databaseUrl, dataDir } = env.target.options;
      expect(chunks).toHaveLength(!databaseUrl && dataDir !== ":memory:" ? 3 : 1);
      const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { works: Array<{ id: string }> };
      expect(parsed.works.map((work) => work.id)).toEqual([...made].reverse());
      // Ended after its first chunk: the rest is not read, and the store goes on reading and writing.
      const early = await env.store.findRecordJson(many.orgId, "work", query, "works");
      for await (const _ of early) break;
      await env.store.createRecord(many, { kind: "work", idType: "issue", prefix: "ISS", data: { n: 5000 } });
      const again = await whole(
        env.store.findRecordJson(many.orgId, "work", { ...query, limit: 1 }, "works"),
      );
      expect(JSON.parse(again.toString("utf8")).works[0].n).toBe(5000);
    });

    it("rejects a cursor from another kind, filter or sort", async () => {
      const sort: SortKey[] = [{ path: "label", direction: "asc" }];
      const filter: Filter = { op: "and", filters: [{ op: "eq", path: "bucket", value: "b1" }] };
      const { next_cursor: cursor } = await env.store.listRecords(actor.orgId, "work", {
        sort,
        filter,
        limit: 5,
      });
      expect(cursor).toBeDefined();
      const list = (kind: string, query: { sort?: SortKey[]; filter?: Filter; cursor?: string }) =>
        env.store.listRecords(actor.orgId, kind, { limit: 5, cursor, ...query });
      await expectStoreError(
        list("work", { sort: [{ path: "label", direction: "desc" }], filter }),
        "bad_cursor",
        "cursor",
      );
      await expectStoreError(list("work", { sort }), "bad_cursor", "cursor");
      await expectStoreError(
        list("work", { sort, filter: { op: "and", filters: [{ op: "eq", path: "bucket", value: "b2" }] } }),
        "bad_cursor",
      );
      await expectStoreError(list("part", { sort, filter }), "bad_cursor");
      await expectStoreError(list("work", { sort, filter, cursor: "not a cursor" }), "bad_cursor", "cursor");
      const forged = Buffer.from(JSON.stringify({ v: [1], s: "x" })).toString("base64url");
      await expectStoreError(list("work", { sort, filter, cursor: forged }), "bad_cursor", "cursor");
      // The same filter written with its keys in another order is the same list.
      const same = (await list("work", {
        sort,
        filter: { filters: [{ value: "b1", path: "bucket", op: "eq" }], op: "and" } as Filter,
      })) as Page<object>;
      expect(same.items).toHaveLength(5);
    });

    it("reads a deep page with the same keyset query as the second, never OFFSET", async () => {
      const sort: SortKey[] = [{ path: "created_date", direction: "desc" }];
      const pageSql: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 12; i++) {
        env.queries.length = 0;
        const page: Page<object> = await env.store.listRecords(actor.orgId, "work", {
          sort,
          limit: 10,
          cursor,
        });
        // The page query reads limit + 1 rows; the EXISTS query for the other direction reads one.
        expect(env.queries.length).toBe(i === 0 ? 1 : 2);
        pageSql.push(env.queries[0] ?? "");
        cursor = page.next_cursor;
      }
      for (const text of pageSql) expect(text).not.toMatch(/\boffset\b/i);
      // Page 2 and page 12 run the same statement; only the bound cursor values differ.
      expect(pageSql[11]).toBe(pageSql[1]);
    });

    it("gives an empty page a cursor back to the rows before it", async () => {
      const mine = await newActor();
      const made = [];
      for (const title of ["x", "y", "z"]) made.push(await work(mine, { title }));
      const first = await env.store.listRecords(mine.orgId, "work", { limit: 2 });
      expect(first.next_cursor).toBeDefined();
      const third = made[2] as StoredRecord;
      await env.store.deleteRecord(mine, "work", third.id);
      const empty = await env.store.listRecords(mine.orgId, "work", { limit: 2, cursor: first.next_cursor });
      expect(empty.items).toEqual([]);
      expect(empty.next_cursor).toBeUndefined();
      expect(empty.prev_cursor).toBeDefined();
      const back = await env.store.listRecords(mine.orgId, "work", {
        limit: 2,
        mode: "before",
        cursor: empty.prev_cursor,
      });
      expect(back.items.map((r) => r.id)).toEqual(made.slice(0, 2).map((r) => r.id));
      expect(back.prev_cursor).toBeUndefined();
      expect(back.next_cursor).toBeUndefined();

      const none = await env.store.listRecords((await newActor()).orgId, "work", { limit: 5 });
      expect(none).toEqual({ items: [] });
    });
  });
});
