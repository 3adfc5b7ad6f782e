// An organization's rows read out of one store (SQLite in memory, where the sandbox template is seeded apart)
// and written into another's empty organization (src/store/org-rows.ts), on every database: ids moved to the
// new organization's number, inside documents too; counters continued; tokens kept but usable by nobody.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/types.js";
import { describeStores } from "./suite.js";

describeStores("an organization's rows written into another store", (env) => {
  let source: Store;
  beforeAll(async () => {
    source = await openStore({ dataDir: ":memory:" });
    // Numbers apart from the target's: the ids must move.
    for (let i = 0; i < 3; i++) await source.createOrg(`filler ${i}`);
  });
  afterAll(() => source?.close());

  it("moves every id to the new organization and continues its counters", async () => {
    const org = await source.createOrg("Seeded apart");
    const user = await source.createDevUser(org, { email: "ada@example.com", full_name: "Ada Lovelace" });
    const actor = { orgId: org.id, orgNumber: org.number, user };
    const part = await source.createRecord(actor, {
      kind: "part",
      idType: "product",
      prefix: "PROD",
      label: "Widget",
      data: { name: "Widget", owner: user.id },
    });
    const work = await source.createRecord(actor, {
      kind: "work",
      idType: "issue",
      prefix: "ISS",
      label: "Broken",
      parent_id: part.id,
      data: { title: "Broken", applies_to_part: { id: part.id } },
    });
    await source.createToken(actor, {
      subject: user.id,
      hash: "a".repeat(64),
      token_hint: "aaaa",
      requested_token_type: "aat",
      scopes: ["work:all"],
      client_id: "cli",
      expires_at: null,
    });
    const rows = await source.sandboxes().orgRows(org);

    const to = await env.store.createOrg("Written into");
    await env.store.transaction((tx) => tx.sandboxes().writeOrgRows(rows, to));
    const moved = (id: string) => id.replace(`devo/${org.number}:`, `devo/${to.number}:`);

    const [copiedUser] = await env.store.listDevUsers(to.id);
    expect(copiedUser).toMatchObject({ id: moved(user.id), email: "ada@example.com" });
    const copiedWork = await env.store.getRecord<{ applies_to_part: { id: string } }>(
      to.id,
      ["work"],
      moved(work.id),
    );
    expect(copiedWork).toMatchObject({ display_id: "ISS-1", parent_id: moved(part.id), label: "Broken" });
    expect(copiedWork?.data.applies_to_part.id).toBe(moved(part.id));
    const copiedPart = await env.store.getRecord<{ owner: string }>(to.id, ["part"], moved(part.id));
    expect(copiedPart?.data.owner).toBe(moved(user.id));
    // Listed in the order they were made.
    const listed = await env.store.listRecords(to.id, "work", { limit: 10 });
    expect(listed.items.map((record) => record.id)).toEqual([moved(work.id)]);

    // The counters go on from the source's; the token is there, but its hash is no secret's.
    const next = await env.store.createRecord(
      { orgId: to.id, orgNumber: to.number, user: copiedUser ?? user },
      { kind: "work", idType: "issue", prefix: "ISS", label: "Next", data: {} },
    );
    expect(next.display_id).toBe("ISS-2");
    expect(await env.store.findTokenByHash("a".repeat(64))).toBeUndefined();
    const tokens = await env.store.listTokens(to.id, { subject: moved(user.id) });
    expect(tokens.map((token) => token.client_id)).toEqual(["cli"]);
  });
});
