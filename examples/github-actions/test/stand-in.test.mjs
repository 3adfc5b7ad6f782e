// Tests of a project that calls the workapi interface, run against the stand-in the workflow starts as a
// service container: WORKAPI_URL, and WORKAPI_TOKEN, the admin token the service was given in advance. Each
// test works in a sandbox of its own (an organization nobody else sees), deleted at its end.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

const url = process.env.WORKAPI_URL ?? "http://localhost:8080";
const adminToken = process.env.WORKAPI_TOKEN;

/** POSTs `body` to the operation at `path`; a busy stand-in's 503 or 429 is retried after its Retry-After. */
async function call(path, body, token) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if ((res.status === 503 || res.status === 429) && attempt < 5) {
      await res.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get("retry-after") ?? 1) * 1000));
      continue;
    }
    return { status: res.status, body: await res.json() };
  }
}

let sandbox;
before(async () => {
  assert.ok(adminToken, "set WORKAPI_TOKEN to the stand-in's admin token");
  const created = await call("/sandboxes.create", { seed: true, name: "api tests" }, adminToken);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  sandbox = created.body.sandbox;
});
after(async () => {
  if (sandbox) await call("/sandboxes.delete", { id: sandbox.id }, adminToken);
});

test("the sandbox holds the demo data", async () => {
  const tags = await call("/tags.list", {}, sandbox.token);
  assert.equal(tags.status, 200);
  assert.ok(tags.body.tags.length > 0);
});

test("a tag made in the sandbox is listed there", async () => {
  const made = await call("/tags.create", { name: "made-by-ci" }, sandbox.token);
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const listed = await call("/tags.list", { name: ["made-by-ci"] }, sandbox.token);
  assert.deepEqual(
    listed.body.tags.map((tag) => tag.id),
    [made.body.tag.id],
  );
});
