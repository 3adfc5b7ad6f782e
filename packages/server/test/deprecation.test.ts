// Deprecation reaches callers: an operation the contract marks `deprecated` is answered with `Deprecation`
// (RFC 9745, a structured-field date) and, where the contract gives `x-sunset`, `Sunset` (RFC 8594, an
// HTTP-date); a deprecated parameter does the same when a request uses it. The contract the server loads is
// this package's bundle with those marks added, as a contract change would add them.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { noticeOf } from "../src/http/deprecation.js";
import { startTestServer, type TestServer } from "./harness.js";

vi.mock("@workapi/spec", async (importOriginal) => {
  const original = await importOriginal<typeof import("@workapi/spec")>();
  return {
    ...original,
    loadSpec: () => {
      const spec = original.loadSpec();
      const tags = (spec.paths["/tags.list"] as Record<string, Record<string, unknown>>).get;
      Object.assign(tags as object, {
        deprecated: true,
        "x-deprecated-at": "2026-11-01",
        "x-sunset": "2027-06-30",
      });
      const articles = (spec.paths["/articles.list"] as Record<string, { parameters: { name?: string }[] }>)
        .get;
      const status = articles?.parameters.find((p) => p.name === "status");
      Object.assign(status as object, { deprecated: true });
      return spec;
    },
  };
});

describe("deprecation headers", () => {
  let server: TestServer;
  beforeAll(async () => {
    // Writes in this thread (no handler is replaced): the write thread would load the unmarked contract.
    server = await startTestServer("sqlite", { handlers: {}, corsOrigins: ["https://app.example"] });
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers a deprecated operation with x-sunset with Deprecation and Sunset", async () => {
    const call = await server.call("GET", "/tags.list");
    expect(call.status).toBe(200);
    expect(call.headers.get("deprecation")).toBe(`@${Date.UTC(2026, 10, 1) / 1000}`);
    expect(call.headers.get("sunset")).toBe("Wed, 30 Jun 2027 00:00:00 GMT");
    // RFC 9745's link: the operation's part of the reference page, which the page does have.
    const link = call.headers.get("link");
    expect(link).toBe('</docs#tag/tags/operation/tags-list>; rel="deprecation"; type="text/html"');
    const page = await (await fetch(`${server.url}/docs`)).text();
    expect(page).toContain(`id="${link?.slice("</docs#".length, link.indexOf(">"))}"`);
    // A browser's client may read them.
    const browser = await server.call("GET", "/tags.list", { headers: { origin: "https://app.example" } });
    expect(browser.headers.get("access-control-expose-headers")).toMatch(/deprecation.*sunset.*link/);
    // Refused calls to it are told too.
    const refused = await server.call("GET", "/tags.list", { token: null });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("sunset")).toBe("Wed, 30 Jun 2027 00:00:00 GMT");
  });

  it("marks a call that uses a deprecated parameter, and only that call", async () => {
    const used = await server.call("GET", "/articles.list?status=published");
    expect(used.status).toBe(200);
    expect(used.headers.get("deprecation")).toBe("@0");
    expect(used.headers.get("sunset")).toBeNull();
    expect(used.headers.get("link")).toBe(
      '</docs#tag/articles/operation/articles-list>; rel="deprecation"; type="text/html"',
    );
    const unused = await server.call("GET", "/articles.list");
    expect(unused.headers.get("deprecation")).toBeNull();
  });

  it("says nothing on operations the contract does not deprecate", async () => {
    const call = await server.call("GET", "/parts.list");
    expect(call.status).toBe(200);
    expect(call.headers.get("deprecation")).toBeNull();
    expect(call.headers.get("sunset")).toBeNull();
    expect(call.headers.get("link")).toBeNull();
  });
});

describe("noticeOf", () => {
  it("reads the contract's marks into the two headers", () => {
    expect(noticeOf({})).toBeUndefined();
    expect(noticeOf({ deprecated: false, "x-sunset": "2027-01-01" })).toBeUndefined();
    expect(noticeOf({ deprecated: true })).toEqual({ deprecation: "@0" });
    expect(noticeOf({ deprecated: true, "x-sunset": "not a date" })).toEqual({ deprecation: "@0" });
    expect(
      noticeOf({ deprecated: true, "x-deprecated-at": "2023-11-14T22:13:20Z", "x-sunset": "2028-02-29" }),
    ).toEqual({
      deprecation: "@1700000000",
      sunset: "Tue, 29 Feb 2028 00:00:00 GMT",
    });
  });
});
