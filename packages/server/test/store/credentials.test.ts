// What authenticates a request, looked up by the token's hash: always as the database is now. A store on a
// SQLite file or on PostgreSQL keeps what it read while no token, organization or user has changed; such a
// change, by this store or another process's, makes the next lookup read again.
import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { openStore } from "../../src/store/open.js";
import { describeStores } from "./suite.js";

describeStores("credentials", (env) => {
  const newToken = async () => {
    const actor = await env.newActor();
    const hash = randomBytes(32).toString("hex");
    const token = await env.store.createToken(actor, {
      subject: actor.user.id,
      hash,
      token_hint: "abcd",
      requested_token_type: "urn:vendor:params:oauth:token-type:pat",
      scopes: ["read"],
      client_id: null,
      expires_at: null,
    });
    return { actor, hash, token };
  };
  const lookups = () => env.queries.filter((query) => query.includes('"tokens"."hash"')).length;

  it("sees a revocation and a deactivation made by this store on the very next lookup", async () => {
    const { actor, hash, token } = await newToken();
    expect((await env.store.findCredentials(hash))?.token.status).toBe("active");
    await env.store.revokeToken(actor, token.id);
    expect((await env.store.findCredentials(hash))?.token.status).toBe("revoked");
    await env.store.setOrgStatus(actor.orgId, "deactivated");
    expect((await env.store.findCredentials(hash))?.org?.status).toBe("deactivated");
  });

  it("sees a revocation and a deactivation made by another store on the very next lookup", async () => {
    if (!env.target.reopenable) return; // an in-memory database has no second store
    const { actor, hash, token } = await newToken();
    expect((await env.store.findCredentials(hash))?.token.status).toBe("active");
    expect((await env.store.findCredentials(hash))?.token.status).toBe("active");
    // As another server process, or `workapi-server token revoke` / `org deactivate`, would.
    const other = await openStore(env.target.options);
    try {
      await other.revokeToken(actor, token.id);
      expect((await env.store.findCredentials(hash))?.token.status).toBe("revoked");
      await other.setOrgStatus(actor.orgId, "deactivated");
      expect((await env.store.findCredentials(hash))?.org?.status).toBe("deactivated");
    } finally {
      await other.close();
    }
  });

  it("reads a repeat lookup again unless its store keeps credentials and they have not changed", async () => {
    const { actor, hash } = await newToken();
    await env.store.findCredentials(hash);
    const before = lookups();
    await env.store.findCredentials(hash);
    await env.store.findCredentials(hash);
    // A SQLite file and PostgreSQL keep credentials; an in-memory database (one connection) has no counts.
    const cached = env.target.reopenable;
    expect(lookups() - before).toBe(cached ? 0 : 2);
    // A write to other records keeps what was kept.
    await env.work(actor, { title: "Not a credential" });
    await env.store.findCredentials(hash);
    expect(lookups() - before).toBe(cached ? 0 : 3);
    // A new organization and user are a change to credentials: the next lookup reads.
    await env.newActor();
    await env.store.findCredentials(hash);
    expect(lookups() - before).toBe(cached ? 1 : 4);
  });
});
