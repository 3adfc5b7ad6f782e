// Pagination: the `all` / `pages` iterators and api.paginate() follow the cursors x-pagination names, in both
// directions, to the end or to an item limit.
import { ApiError, createClient } from "@workapi/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { paginate } from "../src/paginate.js";
import {
  errorBody,
  pagedCollection,
  type ScriptedServer,
  startScriptedServer,
} from "./support/scripted-server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const TAGS = 347;
const tag = (i: number) => ({ id: `TAG-${i}`, display_id: `TAG-${i}`, name: `tag-${i}` });
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `TAG-${from + i}`);

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterator) out.push(item);
  return out;
}

describe("tags.list", () => {
  beforeEach(() => server.route("/tags.list", pagedCollection(TAGS, tag, { items: "tags" })));
  const api = () => createClient({ baseUrl: server.url, token: "t" });

  it("iterates every tag after the start, page by page", async () => {
    const tags = await collect(api().tags.list.all({ limit: 50, sort_by: ["name:asc"] }));
    expect(tags.map((t) => t.id)).toEqual(ids(1, TAGS));
    expect(server.requests).toHaveLength(7);
    const [first, second] = server.requests;
    expect(first?.json).toEqual({ limit: 50, sort_by: ["name:asc"], mode: "after" });
    expect(second?.json).toMatchObject({ limit: 50, sort_by: ["name:asc"], mode: "after" });
    expect(second?.json).toHaveProperty("cursor", expect.any(String));
  });

  it("walks backward in before mode, following prev_cursor", async () => {
    const pages = await collect(api().tags.list.pages({ limit: 100 }, { mode: "before" }));
    expect(pages.map((page) => page.tags.length)).toEqual([100, 100, 100, 47]);
    expect(pages[0]?.tags[0]?.id).toBe("TAG-248");
    expect(pages.flatMap((page) => page.tags.map((t) => t.id)).sort()).toEqual(ids(1, TAGS).sort());
    expect(server.requests.every((r) => (r.json as { mode: string }).mode === "before")).toBe(true);
  });

  it("stops at an item limit, cutting the last page, in both modes", async () => {
    const after = await collect(api().tags.list.all({ limit: 40 }, { limit: 130 }));
    expect(after.map((t) => t.id)).toEqual(ids(1, 130));
    expect(server.requests).toHaveLength(4);
    server.reset();
    server.route("/tags.list", pagedCollection(TAGS, tag, { items: "tags" }));
    const before = await collect(api().tags.list.pages({ limit: 40 }, { mode: "before", limit: 90 }));
    expect(before.map((page) => page.tags.length)).toEqual([40, 40, 10]);
    expect(before[2]?.tags.map((t) => t.id)).toEqual(ids(228, 237));
    expect(server.requests).toHaveLength(3);
  });

  it("starts from a cursor given in the params", async () => {
    const first = await api().tags.list({ limit: 300 });
    const rest = await collect(api().tags.list.all({ cursor: first.data?.next_cursor, limit: 20 }));
    expect(rest.map((t) => t.id)).toEqual(ids(301, TAGS));
  });

  it("sends no request for a limit of 0 and stops when the consumer does", async () => {
    expect(await collect(api().tags.list.all({}, { limit: 0 }))).toEqual([]);
    expect(server.requests).toHaveLength(0);
    for await (const item of api().tags.list.all({ limit: 10 })) {
      expect(item.id).toBe("TAG-1");
      break;
    }
    expect(server.requests).toHaveLength(1);
  });

  it("is also api.paginate(name, params, options)", async () => {
    const items = await collect(api().paginate("tags.list", { limit: 100 }, { limit: 250 }));
    expect(items).toHaveLength(250);
    const pages = await collect(api().paginate("tags.list", { limit: 100 }, { pages: true, mode: "before" }));
    expect(pages.map((page) => page.tags.length)).toEqual([100, 100, 100, 47]);
  });

  it("refuses an operation that is not paginated", () => {
    // @ts-expect-error works.export answers everything at once
    expect(() => api().paginate("works.export", {})).toThrow("works.export is not a paginated operation");
    expect("all" in api().works.export).toBe(false);
    expect("pages" in api().works.export).toBe(false);
  });

  it("throws an ApiError from the iterator on an error answer", async () => {
    server.route("/tags.list", (request, attempt) =>
      attempt === 1
        ? pagedCollection(TAGS, tag, { items: "tags" })(request, attempt)
        : { status: 403, body: errorBody("forbidden") },
    );
    const seen: string[] = [];
    const error = await (async () => {
      for await (const item of api().tags.list.all({ limit: 10 })) seen.push(item.id);
    })().catch((e: unknown) => e);
    expect(seen).toHaveLength(10);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body.type).toBe("forbidden");
  });

  it("retries a page when the client retries", async () => {
    const pages = pagedCollection(TAGS, tag, { items: "tags" });
    server.route("/tags.list", (request, attempt) =>
      attempt === 2 ? { status: 503, body: errorBody("service_unavailable") } : pages(request, attempt),
    );
    const retrying = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1 } });
    const tags = await collect(retrying.tags.list.all({ limit: 200 }));
    expect(tags).toHaveLength(TAGS);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]?.json).toEqual(server.requests[1]?.json);
  });
});

describe("the other list shapes", () => {
  it.each([
    ["org-schedules.list", "org_schedules"],
    ["slas.list", "slas"],
    ["vistas.list", "vistas"],
  ] as const)("%s pages through %s", async (name, items) => {
    server.route(
      `/${name}`,
      pagedCollection(120, (i) => ({ id: `X-${i}` }), { items }),
    );
    const api = createClient({ baseUrl: server.url, token: "t" });
    const all = await collect(api.paginate(name, { limit: 50 }));
    expect(all).toHaveLength(120);
    expect(server.requests).toHaveLength(3);
  });

  it("follows cursor fields named otherwise ({ result, cursor })", async () => {
    // The shape of stages.custom.list and stage-diagrams.list: x-pagination { items: result, next_cursor: cursor }.
    server.route(
      "/stages.custom.list",
      pagedCollection(260, (i) => ({ id: `STG-${i}` }), { items: "result", next: "cursor" }),
    );
    const api = createClient({ baseUrl: server.url, token: "t" });
    const page = async (body: Record<string, unknown>) => {
      const { data } = await api.POST("/stages.custom.list" as "/tags.list", { body, throwOnError: true });
      return data as unknown as Record<string, unknown>;
    };
    const shape = { items: "result", next: "cursor", prev: "prev_cursor" };
    const all = await collect(paginate(page, shape, { limit: 100 }, { limit: 255 }));
    expect(all).toHaveLength(255);
    expect(server.requests.map((r) => (r.json as { cursor?: string }).cursor === undefined)).toEqual([
      true,
      false,
      false,
    ]);
  });
});
