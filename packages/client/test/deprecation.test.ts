// A deprecated operation reaches the caller: the first answer with `Deprecation` calls the hook (a console
// warning unless replaced), once per operation; `false` silences it.
import { createClient, type DeprecationNotice } from "@workapi/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ScriptedServer, startScriptedServer } from "./support/scripted-server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const deprecatedTags = () =>
  server.route("/tags.list", () => ({
    headers: {
      deprecation: "@1700000000",
      sunset: "Wed, 30 Jun 2027 00:00:00 GMT",
      link: '</docs#tag/tags/operation/tags-list>; rel="deprecation"; type="text/html"',
    },
    body: { tags: [] },
  }));

describe("onDeprecated", () => {
  it("is called once per operation with what the answer said", async () => {
    deprecatedTags();
    server.route("/parts.list", () => ({ body: { parts: [] } }));
    const notices: DeprecationNotice[] = [];
    const api = createClient({ baseUrl: server.url, token: "t", onDeprecated: (n) => notices.push(n) });
    await api.tags.list();
    await api.tags.list();
    await api.parts.list();
    expect(notices).toEqual([
      {
        operation: "GET /tags.list",
        deprecation: "@1700000000",
        sunset: "Wed, 30 Jun 2027 00:00:00 GMT",
        link: '</docs#tag/tags/operation/tags-list>; rel="deprecation"; type="text/html"',
      },
    ]);
  });

  it("warns on the console by default, once, and not at all with false", async () => {
    deprecatedTags();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const api = createClient({ baseUrl: server.url, token: "t" });
      await api.tags.list();
      await api.GET("/tags.list");
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[1]).toMatchObject({
        operation: "GET /tags.list",
        sunset: "Wed, 30 Jun 2027 00:00:00 GMT",
      });
      const quiet = createClient({ baseUrl: server.url, token: "t", onDeprecated: false });
      await quiet.tags.list();
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });
});
