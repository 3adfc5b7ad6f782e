// Pagination: `all`, the `pages` iterator and api.paginate() follow the cursors x-pagination names, in both
// directions, to the end, to a number of entries (`max`) or to an error answer.
import { ApiError, createClient } from "@workapi/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { paginate } from "../src/paginate.js";
import { entries, pagesOf } from "./support/answers.js";
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

describe("tags.list", () => {
  beforeEach(() => server.route("/tags.list", pagedCollection(TAGS, tag, { items: "tags" })));
  const api = () => createClient({ baseUrl: server.url, token: "t" });

  it("iterates every tag after the start, page by page", async () => {
    const tags = await entries(api().tags.list.all({ limit: 50, sort_by: ["name:asc"] }));
    expect(tags.map((t) => t.id)).toEqual(ids(1, TAGS));
    expect(server.requests).toHaveLength(7);
    const [first, second] = server.requests;
    expect(first?.json).toEqual({ limit: 50, sort_by: ["name:asc"], mode: "after" });
    expect(second?.json).toMatchObject({ limit: 50, sort_by: ["name:asc"], mode: "after" });
    expect(second?.json).toHaveProperty("cursor", expect.any(String));
  });

  it("walks backward in before mode, following prev_cursor", async () => {
    const pages = await pagesOf(api().tags.list.pages({ limit: 100 }, { mode: "before" }));
    expect(pages.map((page) => page.tags.length)).toEqual([100, 100, 100, 47]);
    expect(pages[0]?.tags[0]?.id).toBe("TAG-248");
    expect(pages.flatMap((page) => page.tags.map((t) => t.id)).sort()).toEqual(ids(1, TAGS).sort());
    expect(server.requests.every((r) => (r.json as { mode: string }).mode === "before")).toBe(true);
  });

  it("stops at an item limit, cutting the last page, in both modes", async () => {
    const after = await entries(api().tags.list.all({ limit: 40 }, { max: 130 }));
    expect(after.map((t) => t.id)).toEqual(ids(1, 130));
    expect(server.requests).toHaveLength(4);
    server.reset();
    server.route("/tags.list", pagedCollection(TAGS, tag, { items: "tags" }));
    const before = await pagesOf(api().tags.list.pages({ limit: 40 }, { mode: "before", max: 90 }));
    expect(before.map((page) => page.tags.length)).toEqual([40, 40, 10]);
    expect(before[2]?.tags.map((t) => t.id)).toEqual(ids(228, 237));
    expect(server.requests).toHaveLength(3);
  });

  it("starts from a cursor given in the params", async () => {
    const first = await api().tags.list({ limit: 300 });
    const rest = await entries(api().tags.list.all({ cursor: first.data?.next_cursor, limit: 20 }));
    expect(rest.map((t) => t.id)).toEqual(ids(301, TAGS));
  });

  it("answers no entry for a max of 0 (after one request) and stops when the consumer does", async () => {
    expect(await entries(api().tags.list.all({}, { max: 0 }))).toEqual([]);
    expect(server.requests).toHaveLength(1);
    for await (const page of api().tags.list.pages({ limit: 10 })) {
      expect(page.data?.tags[0]?.id).toBe("TAG-1");
      break;
    }
    expect(server.requests).toHaveLength(2);
  });

  it("is also api.paginate(name, params, options)", async () => {
    const items = await entries(api().paginate("tags.list", { limit: 100 }, { max: 250 }));
    expect(items).toHaveLength(250);
    const pages = await pagesOf(api().paginate("tags.list", { limit: 100 }, { pages: true, mode: "before" }));
    expect(pages.map((page) => page.tags.length)).toEqual([100, 100, 100, 47]);
  });

  it("refuses an operation that is not paginated", () => {
    // @ts-expect-error works.export answers everything at once
    expect(() => api().paginate("works.export", {})).toThrow("works.export is not a paginated operation");
    expect("all" in api().works.export).toBe(false);
    expect("pages" in api().works.export).toBe(false);
  });

  it("answers an error answer as calls do, or throws an ApiError with throwOnError", async () => {
    server.route("/tags.list", (request, attempt) =>
      attempt % 2 === 1
        ? pagedCollection(TAGS, tag, { items: "tags" })(request, attempt)
        : { status: 403, body: errorBody("forbidden") },
    );
    const { data, error, response } = await api().tags.list.all({ limit: 10 });
    expect(data).toBeUndefined();
    expect(error?.type).toBe("forbidden");
    expect(response.status).toBe(403);
    const seen: number[] = [];
    for await (const page of api().tags.list.pages({ limit: 10 })) seen.push(page.response.status);
    expect(seen).toEqual([200, 403]);
    const thrown = await api()
      .tags.list.all({ limit: 10 }, { throwOnError: true })
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).body.type).toBe("forbidden");
  });

  it("retries a page when the client retries", async () => {
    const pages = pagedCollection(TAGS, tag, { items: "tags" });
    server.route("/tags.list", (request, attempt) =>
      attempt === 2 ? { status: 503, body: errorBody("service_unavailable") } : pages(request, attempt),
    );
    const retrying = createClient({ baseUrl: server.url, token: "t", retry: { baseDelay: 1 } });
    const tags = await entries(retrying.tags.list.all({ limit: 200 }));
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
    const all = await entries(api.paginate(name, { limit: 50 }));
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
    const page = (body: Record<string, unknown>) => api.POST("/stages.custom.list" as "/tags.list", { body });
    const shape = { items: "result", next: "cursor", prev: "prev_cursor" };
    const pages = await pagesOf(paginate(page, shape, { limit: 100 }, { max: 255 }));
    expect(pages.flatMap((p) => (p as { result: unknown[] }).result)).toHaveLength(255);
    expect(server.requests.map((r) => (r.json as { cursor?: string }).cursor === undefined)).toEqual([
      true,
      false,
      false,
    ]);
  });
});
