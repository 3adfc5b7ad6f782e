// The built client in headless Chromium, calling a server on another origin (the scripted server, which
// answers CORS preflights). Skips, saying why, where no Chromium is installed.

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable } from "../../../scripts/chromium.mjs";
import { bundleForBrowser, launchChromium, servePage } from "./support/browser.js";
import {
  errorBody,
  pagedCollection,
  type ScriptedServer,
  startScriptedServer,
} from "./support/scripted-server.js";

const hasChromium = browserAvailable("the browser test of @workapi/client");

describe.skipIf(!hasChromium)("the client in headless Chromium, across origins", () => {
  let server: ScriptedServer;
  let site: Awaited<ReturnType<typeof servePage>>;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startScriptedServer();
    site = await servePage(await bundleForBrowser());
    browser = await launchChromium();
    page = await browser.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(site.url);
    await page.waitForFunction(() => window.workapi !== undefined);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
  });

  it("calls a named operation with the bearer token, after a CORS preflight", async () => {
    server.route("/tags.list", () => ({ body: { tags: [{ id: "TAG-1", name: "bug" }] } }));
    const tags = await page.evaluate(async (baseUrl) => {
      const api = window.workapi.createClient({ baseUrl, token: async () => "browser-token" });
      const { data } = await api.tags.list({ limit: 1 });
      return data?.tags;
    }, server.url);
    expect(tags).toEqual([{ id: "TAG-1", name: "bug" }]);
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe("Bearer browser-token");
    expect(request?.headers.origin).toBe(new URL(site.url).origin);
    expect(request?.json).toEqual({ limit: 1 });
    expect(server.preflights.length).toBeGreaterThan(0);
    expect(server.preflights[0]?.headers["access-control-request-headers"]).toContain("authorization");
  });

  it("pages through a collection with an item limit, in both modes", async () => {
    server.route(
      "/tags.list",
      pagedCollection(180, (i) => ({ id: `TAG-${i}` }), { items: "tags" }),
    );
    const counts = await page.evaluate(async (baseUrl) => {
      const api = window.workapi.createClient({ baseUrl, token: "t" });
      const after = (await api.tags.list.all({ limit: 50 }, { max: 120 })).data?.length;
      const pages: number[] = [];
      for await (const p of api.tags.list.pages({ limit: 50 }, { mode: "before" }))
        pages.push(p.data?.tags.length ?? 0);
      return { after, pages };
    }, server.url);
    expect(counts).toEqual({ after: 120, pages: [50, 50, 50, 30] });
  });

  it("throws a typed ApiError with the request id, and retries a safe read with its body", async () => {
    server.reset();
    server.route("/works.delete", () => ({
      status: 409,
      headers: { "x-request-id": "req-browser" },
      body: errorBody("conflict"),
    }));
    server.route("/tags.list", (_, attempt) =>
      attempt === 1
        ? { status: 503, headers: { "content-type": "text/html" }, body: "<p>down</p>" }
        : { body: { tags: [] } },
    );
    const result = await page.evaluate(async (baseUrl) => {
      const { createClient, ApiError } = window.workapi;
      const api = createClient({ baseUrl, token: "t", throwOnError: true, retry: { baseDelay: 10 } });
      const thrown = await api.works.delete({ id: "ISS-1" }).catch((e: unknown) => e);
      const error =
        thrown instanceof ApiError
          ? { status: thrown.status, type: thrown.body.type, requestId: thrown.requestId }
          : String(thrown);
      const { data } = await api.tags.list({ name: ["bug"] });
      return { error, data };
    }, server.url);
    expect(result.error).toEqual({ status: 409, type: "conflict", requestId: "req-browser" });
    expect(result.data).toEqual({ tags: [] });
    const reads = server.requests.filter((r) => r.path === "/tags.list");
    expect(reads.map((r) => r.json)).toEqual([{ name: ["bug"] }, { name: ["bug"] }]);
  });

  it("gives a non-JSON error answer a typed body and honours the deadline", async () => {
    server.route("/tags.list", () => ({
      status: 503,
      headers: { "content-type": "text/html" },
      body: "<h1>Down</h1>",
    }));
    server.route("/works.export", () => ({ delay: 3000, body: { works: [] } }));
    const result = await page.evaluate(async (baseUrl) => {
      const api = window.workapi.createClient({ baseUrl, token: "t" });
      const { error } = await api.tags.list();
      const timeout = await api.works.export({}, { deadline: 200 }).then(
        () => "answered",
        (e: unknown) => (e as Error).name,
      );
      return { type: error?.type, detail: error?.detail, timeout };
    }, server.url);
    expect(result).toEqual({ type: "service_unavailable", detail: "<h1>Down</h1>", timeout: "TimeoutError" });
    expect(errors).toEqual([]);
  });
});
