// The built client (dist/index.js) in headless Chromium, on a page of one origin, calling the real reference
// server on another: the server's CORS option (corsOrigins ["*"]) lets the page send its bearer token and JSON
// and multipart bodies, and read the exposed x-request-id and x-ratelimit-* headers. Skips, saying why, where
// no Chromium is installed.

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable } from "../../../scripts/chromium.mjs";
import { bundleForBrowser, launchChromium, servePage } from "./support/browser.js";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.js";

const hasChromium = browserAvailable("the browser test of @workapi/client against the reference server");

describe.skipIf(!hasChromium)("the built client in headless Chromium, against the reference server", () => {
  let server: ReferenceServer;
  let site: Awaited<ReturnType<typeof servePage>>;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startReferenceServer("sqlite");
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

  it("runs on another origin than the server's", () => {
    expect(new URL(site.url).origin).not.toBe(new URL(server.url).origin);
  });

  it("creates a tag and lists it, reading the exposed rate-limit headers", async () => {
    const result = await page.evaluate(
      async ({ baseUrl, token }) => {
        const api = window.workapi.createClient({ baseUrl, token, throwOnError: true });
        const { data: created } = await api.tags.create({
          name: "from-the-browser",
          description: "made in Chromium",
        });
        const { data: listed, response } = await api.tags.list({ name: ["from-the-browser"] });
        return {
          created: { name: created.tag.name, display_id: created.tag.display_id },
          listed: listed.tags.map((tag) => ({ id: tag.id, description: tag.description })),
          createdId: created.tag.id,
          limit: response.headers.get("x-ratelimit-limit"),
          remaining: response.headers.get("x-ratelimit-remaining"),
          requestId: response.headers.get("x-request-id"),
        };
      },
      { baseUrl: server.url, token: server.token },
    );
    expect(result.created).toEqual({
      name: "from-the-browser",
      display_id: expect.stringMatching(/^TAG-\d+$/),
    });
    expect(result.listed).toEqual([{ id: result.createdId, description: "made in Chromium" }]);
    expect(Number(result.limit)).toBeGreaterThan(0);
    expect(Number(result.remaining)).toBeLessThan(Number(result.limit));
    expect(result.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("throws an ApiError carrying the answer's x-request-id", async () => {
    const result = await page.evaluate(
      async ({ baseUrl, token }) => {
        const { createClient, ApiError, unwrap } = window.workapi;
        const api = createClient({ baseUrl, token });
        const thrown = await api.tags
          .create({ name: "from-the-browser" }, { throwOnError: true })
          .catch((e: unknown) => e);
        const conflict =
          thrown instanceof ApiError
            ? { status: thrown.status, type: thrown.body.type, requestId: thrown.requestId }
            : String(thrown);
        // The caller's own request id comes back, through unwrap() too.
        const missing = await api.works.get({ id: "ISS-404" }, { headers: { "x-request-id": "page-req-1" } });
        let notFound: unknown;
        try {
          unwrap(missing);
        } catch (e) {
          notFound =
            e instanceof ApiError ? { status: e.status, type: e.body.type, requestId: e.requestId } : e;
        }
        const bad = await createClient({ baseUrl, token: "wrong" }).tags.list();
        return { conflict, notFound, unauthenticated: bad.error?.type };
      },
      { baseUrl: server.url, token: server.token },
    );
    expect(result.conflict).toEqual({
      status: 409,
      type: "conflict",
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(result.notFound).toEqual({ status: 404, type: "not_found", requestId: "page-req-1" });
    expect(result.unauthenticated).toBe("unauthenticated");
  });

  it("uploads a Blob as multipart and pages through tags in both modes", async () => {
    const result = await page.evaluate(
      async ({ baseUrl, token }) => {
        const api = window.workapi.createClient({ baseUrl, token, throwOnError: true });
        const { data: prepared } = await api.artifacts.prepare({
          file_name: "page.html",
          file_type: "text/html",
        });
        const { data: uploaded } = await api.artifacts.upload({
          id: prepared.id,
          file: new Blob(["<p>hello</p>"], { type: "text/html" }),
        });
        for (let i = 1; i <= 24; i++) await api.tags.create({ name: `page-${String(i).padStart(2, "0")}` });
        const after = (await api.tags.list.all({ limit: 10 }, { max: 20 })).data.map((tag) => tag.name);
        const before: number[] = [];
        for await (const p of api.tags.list.pages({ limit: 10 }, { mode: "before" }))
          before.push(p.data.tags.length);
        return { file: uploaded.artifact.file, after, before };
      },
      { baseUrl: server.url, token: server.token },
    );
    expect(result.file).toMatchObject({ name: "page.html", type: "text/html", size: 12 });
    // 25 tags: the one made above, then page-01... page-24.
    expect(result.after).toEqual([
      "from-the-browser",
      ...Array.from({ length: 19 }, (_, i) => `page-${String(i + 1).padStart(2, "0")}`),
    ]);
    expect(result.before).toEqual([10, 10, 5]);
    expect(errors).toEqual([]);
    expect(server.app.violations).toEqual([]);
  });
});
