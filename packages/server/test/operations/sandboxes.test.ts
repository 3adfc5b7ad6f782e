// sandboxes.* through real HTTP: sandboxes made, isolated, listed, deleted and expired; scenarios (Prefer)
// and the request journal of each sandbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExpired } from "../../src/store/sandbox-expiry.js";
import { databases, startTestServer, type TestServer } from "../harness.js";

describe.each(databases)("sandboxes on %s", (database) => {
  let server: TestServer;
  const create = async (body: Record<string, unknown> = {}) => {
    const res = await server.post("/sandboxes.create", body);
    expect(res.status).toBe(201);
    return res.body.sandbox as { id: string; token: string; expires_at: string; seeded: boolean };
  };

  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("sandboxes.create", () => {
    it("makes an organization of its own whose token works, and which starts empty", async () => {
      const before = Date.now();
      const sandbox = await create({ name: "tags suite", ttl_seconds: 600 });
      expect(sandbox).toMatchObject({ name: "tags suite", seeded: false });
      expect(sandbox.id).not.toBe(server.org.id);
      expect(Date.parse(sandbox.expires_at) - before).toBeGreaterThan(590_000);
      expect(Date.parse(sandbox.expires_at) - before).toBeLessThan(610_000);
      const tags = await server.call("GET", "/tags.list", { token: sandbox.token });
      expect(tags.status).toBe(200);
      expect(tags.body.tags).toEqual([]);
      const self = await server.call("GET", "/dev-users.self", { token: sandbox.token });
      expect(self.body.dev_user.email).toBe("admin@workapi.local");
    });

    it("is refused to a sandbox's own token and to a token without sandbox:admin (403)", async () => {
      const sandbox = await create();
      for (const token of [sandbox.token, await server.token(["tag:all"])]) {
        const res = await server.post("/sandboxes.create", {}, token);
        expect(res.status).toBe(403);
        expect(res.body.type).toBe("forbidden");
        expect((await server.call("GET", "/sandboxes.list", { token })).status).toBe(403);
      }
      const made = await server.post("/sandboxes.create", {}, await server.token(["sandbox:admin"]));
      expect(made.status).toBe(201);
      // A sandbox's token cannot hand itself the scope either.
      const issued = await server.post("/auth-tokens.create", { scope: "sandbox:admin" }, sandbox.token);
      expect(issued.status).toBe(403);
    });

    it("makes 20 sandboxes in parallel, each seeing only its own records", async () => {
      const sandboxes = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ name: `s${i}` })));
      expect(new Set(sandboxes.map((s) => s.id)).size).toBe(20);
      const tags = await Promise.all(
        sandboxes.map((s, i) => server.post("/tags.create", { name: `only-${i}` }, s.token)),
      );
      for (const tag of tags) expect(tag.status).toBe(201);
      await Promise.all(
        sandboxes.map(async (s, i) => {
          const listed = await server.call("GET", "/tags.list", { token: s.token });
          expect(listed.body.tags.map((t: { name: string }) => t.name)).toEqual([`only-${i}`]);
          // Another sandbox's tag is as if it did not exist.
          const other = tags[(i + 1) % 20]?.body.tag.id;
          expect(
            (await server.call("GET", `/tags.list?name=only-${(i + 1) % 20}`, { token: s.token })).body.tags,
          ).toEqual([]);
          expect(other).toBeDefined();
        }),
      );
      // Nor does the operator's organization see them.
      const operator = await server.call("GET", "/tags.list?name=only-0");
      expect(operator.body.tags).toEqual([]);
    });

    it("with seed: true holds the demo data set: 300 works, the same in every seeded sandbox", async () => {
      const [a, b] = [await create({ seed: true }), await create({ seed: true })];
      for (const sandbox of [a, b]) {
        expect(sandbox.seeded).toBe(true);
        const works = await server.post("/works.export", { first: 5000 }, sandbox.token);
        expect(works.status).toBe(200);
        expect(works.body.works).toHaveLength(300);
        const first = works.body.works[0];
        const got = await server.call("GET", `/works.get?id=${encodeURIComponent(first.id)}`, {
          token: sandbox.token,
        });
        expect(got.status).toBe(200);
        expect(got.body.work.display_id).toBe(first.display_id);
      }
      const ofA = (await server.post("/works.export", { first: 1 }, a.token)).body.works[0];
      const ofB = (await server.post("/works.export", { first: 1 }, b.token)).body.works[0];
      expect(ofA.display_id).toBe(ofB.display_id);
      expect(ofA.id).not.toBe(ofB.id);
      // Writes in one seeded sandbox leave the other as it was.
      const changed = await server.post("/works.update", { id: ofA.id, title: "changed in a" }, a.token);
      expect(changed.status).toBe(200);
      expect(
        (await server.call("GET", `/works.get?id=${ofB.display_id}`, { token: b.token })).body.work.title,
      ).toBe(ofB.title);
      // A new record numbers on from the copy's counters.
      const tag = await server.post("/tags.create", { name: "new-in-b" }, b.token);
      expect(tag.status).toBe(201);
      const listed = await server.call("GET", "/tags.list?limit=1000", { token: b.token });
      expect(new Set(listed.body.tags.map((t: { id: string }) => t.id)).size).toBe(listed.body.tags.length);
    });
  });

  describe("sandboxes.get", () => {
    it("gets the caller's sandbox (never its token), and hides it from another organization", async () => {
      const sandbox = await create({ name: "got" });
      const got = await server.call("GET", `/sandboxes.get?id=${encodeURIComponent(sandbox.id)}`);
      expect(got.status).toBe(200);
      expect(got.body.sandbox).toMatchObject({ id: sandbox.id, name: "got" });
      expect(got.body.sandbox.token).toBeUndefined();
      const other = await server.otherOrg();
      const theirs = await server.call("GET", `/sandboxes.get?id=${encodeURIComponent(sandbox.id)}`, {
        token: other.token,
      });
      expect(theirs.status).toBe(404);
    });
  });

  describe("sandboxes.list", () => {
    it("lists the caller's sandboxes page by page (never their tokens), and none of another organization's", async () => {
      const sandbox = await create({ name: "listed" });
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await server.post("/sandboxes.list", { limit: 7, ...(cursor ? { cursor } : {}) });
        expect(page.status).toBe(200);
        for (const listed of page.body.sandboxes) expect(listed.token).toBeUndefined();
        ids.push(...page.body.sandboxes.map((s: { id: string }) => s.id));
        cursor = page.body.next_cursor;
      } while (cursor);
      expect(ids).toContain(sandbox.id);
      expect(new Set(ids).size).toBe(ids.length);
      const other = await server.otherOrg();
      expect((await server.call("GET", "/sandboxes.list", { token: other.token })).body.sandboxes).toEqual(
        [],
      );
    });
  });

  describe("sandboxes.delete", () => {
    it("does not delete another organization's sandbox", async () => {
      const sandbox = await create({ name: "kept" });
      const other = await server.otherOrg();
      expect((await server.post("/sandboxes.delete", { id: sandbox.id }, other.token)).status).toBe(404);
      expect((await server.call("GET", `/sandboxes.get?id=${encodeURIComponent(sandbox.id)}`)).status).toBe(
        200,
      );
    });

    it("deletes a sandbox with every record of it: its token answers 401 at once", async () => {
      const sandbox = await create({ seed: true });
      // A read answered (and kept) just before.
      expect((await server.call("GET", "/tags.list", { token: sandbox.token })).status).toBe(200);
      const deleted = await server.post("/sandboxes.delete", { id: sandbox.id });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({});
      const after = await server.call("GET", "/tags.list", { token: sandbox.token });
      expect(after.status).toBe(401);
      expect(after.body.type).toBe("unauthenticated");
      expect((await server.call("GET", `/sandboxes.get?id=${encodeURIComponent(sandbox.id)}`)).status).toBe(
        404,
      );
      expect((await server.post("/sandboxes.delete", { id: sandbox.id })).status).toBe(404);
      expect(await server.store.countRecords(sandbox.id, "work")).toBe(0);
      expect(await server.store.getOrg(sandbox.id)).toBeUndefined();
    });

    it("deletes a sandbox past its expiry: the server's sweep", async () => {
      const sandbox = await create({ ttl_seconds: 1 });
      const kept = await create({ ttl_seconds: 600 });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      // Its token expires with it, before the sweep comes.
      const expired = await server.call("GET", "/tags.list", { token: sandbox.token });
      expect(expired.status).toBe(401);
      expect(expired.body.type).toBe("token_expired");
      expect(await sweepExpired(server.store)).toBeGreaterThanOrEqual(1);
      expect((await server.call("GET", "/tags.list", { token: sandbox.token })).status).toBe(401);
      expect((await server.call("GET", "/tags.list", { token: kept.token })).status).toBe(200);
      expect(await server.store.getOrg(sandbox.id)).toBeUndefined();
    });
  });

  describe("scenarios (Prefer)", () => {
    it("answers the documented 404 of works.get and changes nothing; 418 is a typed 400", async () => {
      const sandbox = await create({ seed: true });
      const [work] = (await server.post("/works.export", { first: 1 }, sandbox.token)).body.works;
      const path = `/works.get?id=${encodeURIComponent(work.id)}`;
      const res = await server.call("GET", path, { token: sandbox.token, headers: { prefer: "code=404" } });
      expect(res.status).toBe(404);
      expect(res.body.type).toBe("not_found");
      const getOp = server.app.contract.operations.find((o) => o.operationId === "works-get");
      expect(getOp?.checkResponse(404, res.body)).toBeUndefined();
      const teapot = await server.call("GET", path, {
        token: sandbox.token,
        headers: { prefer: "code=418" },
      });
      expect(teapot.status).toBe(400);
      expect(teapot.body).toMatchObject({ type: "value_not_permitted", field_name: "Prefer" });
      expect(teapot.body.allowed_values).toEqual(expect.arrayContaining(["200", "404", "429"]));
      expect((await server.call("GET", path, { token: sandbox.token })).body.work).toEqual(work);
      // A write answered with a scenario writes nothing.
      const made = await server.post("/tags.create", { name: "never" }, sandbox.token, {
        prefer: "code=201",
      });
      expect(made.status).toBe(201);
      expect((await server.call("GET", "/tags.list?name=never", { token: sandbox.token })).body.tags).toEqual(
        [],
      );
    });

    it("answers 429 with Retry-After, answers late with delay, and is ignored outside sandboxes", async () => {
      const sandbox = await create();
      const limited = await server.call("GET", "/tags.list", {
        token: sandbox.token,
        headers: { prefer: "code=429" },
      });
      expect(limited.status).toBe(429);
      expect(limited.body.type).toBe("too_many_requests");
      expect(limited.headers.get("retry-after")).toBe(String(limited.body.retry_after));
      const sooner = await server.call("GET", "/tags.list", {
        token: sandbox.token,
        headers: { prefer: "code=429, retry-after=1" },
      });
      expect(sooner.headers.get("retry-after")).toBe("1");
      expect(sooner.body.retry_after).toBe(1);
      const tagsList = server.app.contract.operations.find((o) => o.operationId === "tags-list");
      expect(tagsList?.checkResponse(429, sooner.body)).toBeUndefined();
      const start = Date.now();
      const late = await server.call("GET", "/tags.list", {
        token: sandbox.token,
        headers: { prefer: "delay=300" },
      });
      expect(late.status).toBe(200);
      expect(Date.now() - start).toBeGreaterThanOrEqual(290);
      const operator = await server.call("GET", "/tags.list", { headers: { prefer: "code=429" } });
      expect(operator.status).toBe(200);
    });
  });

  describe("sandboxes.requests.list", () => {
    it("lists a sandbox's requests oldest first with their bodies and statuses, and never the token", async () => {
      const sandbox = await create();
      await server.post("/tags.create", { name: "first" }, sandbox.token);
      await server.post("/tags.create", { name: "first" }, sandbox.token); // 409
      await server.call("GET", "/tags.list?name=first", { token: sandbox.token });
      await server.call("GET", "/tags.list", { token: sandbox.token, headers: { prefer: "code=503" } });
      const id = encodeURIComponent(sandbox.id);
      const res = await server.call("GET", `/sandboxes.requests.list?id=${id}`);
      expect(res.status).toBe(200);
      expect(res.body.requests.map((r: { status: number }) => r.status)).toEqual([201, 409, 200, 503]);
      expect(res.body.requests[0]).toMatchObject({
        operation: "tags.create",
        method: "POST",
        path: "/tags.create",
        query: "",
        body: { name: "first" },
      });
      expect(res.body.requests[2]).toMatchObject({
        operation: "tags.list",
        method: "GET",
        query: "name=first",
      });
      expect(res.body.requests[2].body).toBeUndefined();
      expect(JSON.stringify(res.body)).not.toContain(sandbox.token);
      const times = res.body.requests.map((r: { time: string }) => Date.parse(r.time));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      const creates = await server.call(
        "GET",
        `/sandboxes.requests.list?id=${id}&operation=tags.create&limit=1`,
      );
      expect(creates.body.requests).toHaveLength(1);
      expect(creates.body.requests[0].status).toBe(201);
      const next = await server.call(
        "GET",
        `/sandboxes.requests.list?id=${id}&operation=tags.create&limit=1&cursor=${creates.body.next_cursor}`,
      );
      expect(next.body.requests.map((r: { status: number }) => r.status)).toEqual([409]);
      expect(next.body.next_cursor).toBeUndefined();
      const back = await server.post("/sandboxes.requests.list", {
        id: sandbox.id,
        operation: "tags.create",
        mode: "before",
        cursor: next.body.prev_cursor,
      });
      expect(back.body.requests.map((r: { status: number }) => r.status)).toEqual([201]);
      // The operator's own requests are kept nowhere.
      expect(
        (await server.call("GET", `/sandboxes.requests.list?id=${encodeURIComponent(server.org.id)}`)).status,
      ).toBe(404);
    });
  });
});

describe.each(databases)("sandbox settings on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    // Given in the server's configuration, which hands them to where the creates run (the write thread, on
    // a SQLite file) and to the journal.
    server = await startTestServer(database, { maxSandboxes: 2, sandboxJournalMax: 3 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("refuses a sandbox past the limit of live ones with 409, and keeps the latest requests of each", async () => {
    const made = [];
    for (let i = 0; i < 2; i++)
      made.push((await server.call("POST", "/sandboxes.create", { body: {} })).body.sandbox);
    const third = await server.call("POST", "/sandboxes.create", { body: {} });
    expect(third.status).toBe(409);
    expect(third.body.type).toBe("conflict");
    for (let i = 0; i < 5; i++) {
      await server.call("POST", "/tags.create", { token: made[0].token, body: { name: `t${i}` } });
    }
    const journal = await server.call("GET", `/sandboxes.requests.list?id=${encodeURIComponent(made[0].id)}`);
    expect(journal.body.requests.map((r: { body: { name: string } }) => r.body.name)).toEqual([
      "t2",
      "t3",
      "t4",
    ]);
    expect((await server.call("POST", "/sandboxes.delete", { body: { id: made[1].id } })).status).toBe(200);
    expect((await server.call("POST", "/sandboxes.create", { body: {} })).status).toBe(201);
  });
});

describe.each(databases)("spare seeded sandboxes on %s", (database) => {
  let server: TestServer;
  const spares = async () => {
    const rows = await server.store.listOrgs();
    return rows.filter((org) => org.name === "Spare seeded sandbox" && org.status === "deactivated");
  };
  /** Waits (up to 60 s on a busy machine) until `count` spares are kept. */
  const sparesReach = async (count: number) => {
    const until = Date.now() + 60_000;
    while ((await spares()).length !== count) {
      if (Date.now() > until) throw new Error(`spares stayed at ${(await spares()).length}, not ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  beforeAll(async () => {
    server = await startTestServer(database, { sandboxSpares: 2 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("keeps spares made ahead once a seeded sandbox was made, and a seeded create takes one", async () => {
    expect(await spares()).toHaveLength(0);
    // An empty sandbox asks for none; the first seeded one makes the template, then the spares follow.
    expect((await server.post("/sandboxes.create", {})).status).toBe(201);
    const first = await server.post("/sandboxes.create", { seed: true, name: "first" });
    expect(first.status).toBe(201);
    await sparesReach(2);
    const kept = (await spares()).map((org) => org.id);
    // A spare is no sandbox: not listed, and nobody's token reaches it.
    const listed = await server.call("GET", "/sandboxes.list?limit=100");
    expect(listed.body.sandboxes.map((s: { id: string }) => s.id)).not.toContain(kept[0]);
    expect(
      (await server.call("GET", `/sandboxes.get?id=${encodeURIComponent(kept[0] as string)}`)).status,
    ).toBe(404);

    const taken = await server.post("/sandboxes.create", {
      seed: true,
      name: "from a spare",
      ttl_seconds: 900,
    });
    expect(taken.status).toBe(201);
    const sandbox = taken.body.sandbox;
    expect(kept).toContain(sandbox.id);
    expect(sandbox).toMatchObject({ name: "from a spare", seeded: true });
    const org = await server.store.getOrg(sandbox.id);
    expect(org).toMatchObject({ name: "from a spare", status: "active" });
    // It holds the same data set as a copy made at once, under its own ids, and its token works.
    const works = await server.post("/works.export", { first: 5000 }, sandbox.token);
    expect(works.body.works).toHaveLength(300);
    const ofFirst = (await server.post("/works.export", { first: 1 }, first.body.sandbox.token)).body
      .works[0];
    expect(works.body.works[0].display_id).toBe(ofFirst.display_id);
    expect(works.body.works[0].id).toContain(`devo/${org?.number}:`);
    const self = await server.call("GET", "/dev-users.self", { token: sandbox.token });
    expect(self.body.dev_user.email).toBe(
      (await server.call("GET", "/dev-users.self", { token: first.body.sandbox.token })).body.dev_user.email,
    );
    expect((await server.post("/tags.create", { name: "new in the spare" }, sandbox.token)).status).toBe(201);
    // The one taken is made again while the server is idle.
    await sparesReach(2);
    expect((await spares()).map((o) => o.id)).not.toContain(sandbox.id);
    // Deleting it deletes it like any sandbox.
    expect((await server.post("/sandboxes.delete", { id: sandbox.id })).status).toBe(200);
    expect(await server.store.getOrg(sandbox.id)).toBeUndefined();
  });

  it("gives every one of many seeded creates at once a sandbox of its own, spares or copies", async () => {
    await sparesReach(2);
    const made = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        server.post("/sandboxes.create", { seed: true, name: `burst ${i}` }),
      ),
    );
    for (const res of made) expect(res.status).toBe(201);
    const ids = made.map((res) => res.body.sandbox.id);
    expect(new Set(ids).size).toBe(5);
    for (const res of made) {
      const works = await server.post("/works.export", { first: 5000 }, res.body.sandbox.token);
      expect(works.body.works).toHaveLength(300);
    }
    await sparesReach(2);
  });
});
