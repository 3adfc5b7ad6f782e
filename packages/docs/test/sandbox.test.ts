// The console's sandbox button, on a page built from a contract that has `sandboxes.create` (as the real one
// does, and the built page shows it): it calls that operation with the console's token and `seed: true`, fills in the
// sandbox's token, and the next call goes with it. A page whose contract lacks the operation shows no button.
// A small in-test server stands in for a server with sandboxes. Skips, saying why, where no Chromium is installed.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { loadSpec } from "@workapi/spec";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { docsPath } from "../index.js";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { renderConsole, renderDocs } from "../src/render/generate.mjs";

const hasChromium = browserAvailable("the docs sandbox button test");
const root = fileURLToPath(new URL("../../../", import.meta.url));
const artifacts = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

/** The contract with the sandboxes issue's `sandboxes.create`. */
function withSandboxes() {
  const doc = loadSpec();
  doc.paths["/sandboxes.create"] = {
    post: {
      operationId: "sandboxes-create",
      "x-interface-name": "sandboxes.create",
      summary: "Create a sandbox",
      tags: ["sandboxes"],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              additionalProperties: false,
              properties: {
                seed: { type: "boolean" },
                ttl_seconds: { type: "integer" },
                name: { type: "string" },
              },
            },
          },
        },
      },
      responses: {
        "201": {
          description: "The sandbox is made.",
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["sandbox"],
                properties: {
                  sandbox: {
                    type: "object",
                    required: ["id", "token", "expires_at"],
                    properties: {
                      id: { type: "string" },
                      token: { type: "string" },
                      expires_at: { type: "string" },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  } as never;
  return doc;
}

/** The contract without the sandbox operations. */
function withoutSandboxes() {
  const doc = loadSpec();
  for (const path of Object.keys(doc.paths)) if (path.startsWith("/sandboxes.")) delete doc.paths[path];
  return doc;
}

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => resolve(text));
  });

describe.skipIf(!hasChromium)("the console's sandbox button", () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  const calls: Array<{ path: string; authorization?: string; body: string }> = [];
  beforeAll(async () => {
    // Each page with its console.js beside it (the page loads it when a console first opens).
    const pages: Record<string, string> = {
      "/docs": await renderDocs(root, withSandboxes(), []),
      "/console.js": await renderConsole(withSandboxes()),
      "/without/docs": await renderDocs(root, withoutSandboxes(), []),
      "/without/console.js": await renderConsole(withoutSandboxes()),
    };
    server = createServer(async (request, response) => {
      const path = new URL(request.url ?? "/", "http://x").pathname;
      calls.push({ path, authorization: request.headers.authorization, body: await read(request) });
      if (path === "/sandboxes.create" && request.headers.authorization === "Bearer operator-token") {
        response.writeHead(201, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            sandbox: { id: "SBX-1", token: "sandbox-token-1", expires_at: "2026-12-01T00:00:00Z" },
          }),
        );
      } else if (pages[path] !== undefined) {
        const type = path.endsWith(".js") ? "text/javascript" : "text/html; charset=utf-8";
        response.writeHead(200, { "content-type": type });
        response.end(pages[path]);
      } else {
        response.writeHead(200, { "content-type": "application/json" });
        // Not what the contract says a tags.list answers: the console must say so.
        response.end(JSON.stringify({ tags: "none" }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("makes a seeded sandbox with the console's token and fills in the sandbox's token", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${origin}/docs#tag/tags/operation/tags-list`, { waitUntil: "load" });
    await page.click('[data-operation="tags-list"] button.try-open');
    const console_ = page.locator('form.console[data-operation="tags-list"]');
    await expect(console_.locator('input[name="base"]').inputValue()).resolves.toBe(origin);
    await console_.locator('input[name="token"]').fill("operator-token");
    await console_.locator('button[name="sandbox"]').click();
    await expect.poll(() => console_.locator('input[name="token"]').inputValue()).toBe("sandbox-token-1");
    expect(await console_.locator('output[name="sandbox-note"]').textContent()).toContain("SBX-1");
    const made = calls.find((call) => call.path === "/sandboxes.create");
    expect(made).toMatchObject({ authorization: "Bearer operator-token" });
    expect(JSON.parse(made?.body ?? "{}")).toEqual({ seed: true });
    // The next call goes to the sandbox, with its token.
    await console_.locator('button[name="send"]').click();
    await expect
      .poll(() => calls.find((call) => call.path === "/tags.list")?.authorization)
      .toBe("Bearer sandbox-token-1");
    // An answer that the contract's schema for its status refuses is marked as such, with the field.
    await expect.poll(() => console_.locator(".check").getAttribute("class")).toBe("check mismatch");
    expect(await console_.locator(".check").textContent()).toBe(
      "Does not match the contract's schema for 200: tags: must be array, not string",
    );
    await page.screenshot({ path: `${artifacts}docs-sandbox.png` });
    await page.close();
  });

  it("sends to a base URL the reader types, another origin than the page's", async () => {
    const seen: Array<{ method?: string; path: string; authorization?: string }> = [];
    // Another server, which lets the page's origin call it (CORS), as @workapi/server's corsOrigins does.
    const other = createServer((request, response) => {
      seen.push({
        method: request.method,
        path: new URL(request.url ?? "/", "http://x").pathname,
        authorization: request.headers.authorization,
      });
      response.setHeader("access-control-allow-origin", origin);
      response.setHeader("access-control-allow-headers", "authorization, content-type");
      response.writeHead(request.method === "OPTIONS" ? 204 : 200, { "content-type": "application/json" });
      response.end(request.method === "OPTIONS" ? undefined : JSON.stringify({ tags: [] }));
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/docs`, { waitUntil: "load" });
      await page.click('[data-operation="tags-list"] button.try-open');
      const form = page.locator('form.console[data-operation="tags-list"]');
      await form.locator('input[name="base"]').fill(elsewhere);
      await form.locator('input[name="token"]').fill("typed-token");
      expect(await form.locator(".live-curl").textContent()).toContain(`curl -G '${elsewhere}/tags.list'`);
      await form.locator('button[name="send"]').click();
      await expect
        .poll(() => form.locator(".check").textContent())
        .toBe("Matches the contract's schema for 200.");
      expect(seen.filter((call) => call.method === "GET")).toEqual([
        { method: "GET", path: "/tags.list", authorization: "Bearer typed-token" },
      ]);
      // The token is kept for the tab's session only.
      const kept = await page.evaluate(() => ({
        session: Object.values({ ...sessionStorage }),
        local: Object.values({ ...localStorage }),
      }));
      expect(kept.session).toContain("typed-token");
      expect(kept.local).not.toContain("typed-token");
      await page.close();
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("is there on the built page, whose contract has sandboxes.create, and not without it", async () => {
    for (const [href, count] of [
      [docsPath.href, 1],
      [`${origin}/without/docs`, 0],
    ] as const) {
      const page = await browser.newPage();
      await page.goto(href, { waitUntil: "load" });
      await page.click('[data-operation="tags-list"] button.try-open');
      await page.locator('form.console[data-operation="tags-list"]').waitFor();
      expect(await page.locator('button[name="sandbox"]').count(), href).toBe(count);
      await page.close();
    }
  });
});
