// The reference page, its icon and the bundle as a browser or a cache meets them: the built bytes exactly, compressed
// when asked, a strong ETag per representation, 304 on a repeat, and cache headers.
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { consolePath, docsPath, faviconPath } from "@workapi/docs";
import { specPath } from "@workapi/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./harness.js";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request without fetch, which would undo the content coding this file is about. */
function get(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const built = {
  "/docs": readFileSync(docsPath),
  "/openapi.json": readFileSync(specPath),
  "/openapi.yaml": readFileSync(new URL("./openapi.yaml", specPath)),
};
const types = {
  "/docs": "text/html",
  "/openapi.json": "application/json",
  "/openapi.yaml": "application/yaml",
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer("sqlite");
});
afterAll(() => server?.close());

describe.each(Object.keys(built) as (keyof typeof built)[])("%s", (path) => {
  const url = () => `${server.url}${path}`;

  it("answers the built bytes as they are when no coding is asked for", async () => {
    const res = await get(url());
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain(types[path]);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.equals(built[path])).toBe(true);
    expect(res.headers.vary).toContain("Accept-Encoding");
    expect(res.headers["cache-control"]).toBe("public, no-cache");
  });

  it.each([
    ["br", brotliDecompressSync],
    ["gzip", gunzipSync],
  ] as const)(
    "answers %s when the client accepts it, decoding to the built bytes",
    async (coding, decode) => {
      const res = await get(url(), { "accept-encoding": coding });
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"]).toBe(coding);
      expect(res.body.length).toBeLessThan(built[path].length / 2);
      expect(decode(res.body).equals(built[path])).toBe(true);
    },
  );

  it("prefers brotli, honours weights, and falls back to the plain bytes when every coding is refused", async () => {
    expect((await get(url(), { "accept-encoding": "gzip, deflate, br" })).headers["content-encoding"]).toBe(
      "br",
    );
    expect((await get(url(), { "accept-encoding": "br;q=0.5, gzip" })).headers["content-encoding"]).toBe(
      "gzip",
    );
    const refused = await get(url(), { "accept-encoding": "br;q=0, gzip;q=0, identity;q=0" });
    expect(refused.status).toBe(200);
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body.equals(built[path])).toBe(true);
  });

  it("gives each representation its own strong ETag and answers a repeat with 304", async () => {
    const tags = new Set<string>();
    for (const coding of ["br", "gzip", "identity"]) {
      const first = await get(url(), { "accept-encoding": coding });
      const tag = String(first.headers.etag);
      expect(tag).toMatch(/^"[^"]+"$/); // strong: no W/ prefix
      tags.add(tag);
      const again = await get(url(), { "accept-encoding": coding, "if-none-match": tag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(tag);
      const stale = await get(url(), { "accept-encoding": coding, "if-none-match": '"not-this-one"' });
      expect(stale.status).toBe(200);
    }
    expect(tags.size).toBe(3);
  });
});

it("serves the docs without a token, as a page a browser opens directly", async () => {
  const res = await get(`${server.url}/docs`, { "accept-encoding": "br" });
  expect(res.status).toBe(200);
});

it("answers the console's data and checks beside the page, where its relative console.js leads", async () => {
  for (const path of ["/console.js", "/docs/console.js"]) {
    const res = await get(`${server.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.body.equals(readFileSync(consolePath))).toBe(true);
  }
});

it("answers the page's icon at /favicon.ico, an SVG, without a token", async () => {
  const res = await get(`${server.url}/favicon.ico`);
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toBe("image/svg+xml");
  expect(res.body.equals(readFileSync(faviconPath))).toBe(true);
});
