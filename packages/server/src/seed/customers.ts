// Customers (tickets are for them): accounts with a Rev organization each, and their support conversations.
import { uploadedArtifact } from "./calls.js";
import { type Builder, type Setup, STAGE_NAMES } from "./context.js";

/** Five accounts, each with its main office as a Rev organization; returns the accounts' ids. */
export async function makeAccounts({ call, rnd, count }: Builder, userIds: string[]): Promise<string[]> {
  const accountIds: string[] = [];
  for (const [name, domain] of [
    ["Acme Corporation", "acme.example"],
    ["Globex", "globex.example"],
    ["Initech", "initech.example"],
    ["Umbrella Health", "umbrella.example"],
    ["Stark Industries", "stark.example"],
  ] as const) {
    const { account } = await call("accounts.create", {
      display_name: name,
      domains: [domain],
      external_refs: [`crm-${domain}`],
      tier: rnd.pick(["enterprise", "growth", "starter"]),
      owned_by: [rnd.pick(userIds)],
    });
    accountIds.push(account.id);
    await call("rev-orgs.create", {
      account: account.id,
      display_name: `${name} (main office)`,
      domain,
      external_ref: `rev-${domain}`,
      environment: "production",
    });
    count("accounts");
    count("rev_orgs");
  }
  return accountIds;
}

/** Support conversations of the accounts, two messages each. */
export async function makeConversations({ call, rnd, count }: Builder, setup: Setup): Promise<void> {
  for (let i = 0; i < 24; i++) {
    await call("conversations.create", {
      type: "support",
      title: `${rnd.pick(["Cannot", "Unable to", "How do I"])} ${rnd.pick(["export", "log in", "invite a colleague", "change plan"])}`,
      account: rnd.pick(setup.accountIds),
      owned_by: [rnd.pick(setup.userIds)],
      members: rnd.some(setup.userIds, 2),
      stage: { name: rnd.pick(STAGE_NAMES) },
      tags: rnd.some(setup.tagIds, 2).map((id) => ({ id })),
      source_channel: "email",
      source_channel_v2: "channel-email",
      messages: [
        {
          body: "Hello, since this morning it does not work for our team.",
          // Every third conversation opens with a screenshot.
          ...(i % 3 === 0
            ? { artifacts: [await uploadedArtifact(call, `screenshot-${i + 1}.png`, "image/png", ["PNG"])] }
            : {}),
        },
        { body: "Thanks, we are looking into it." },
      ],
    });
    count("conversations");
  }
}
