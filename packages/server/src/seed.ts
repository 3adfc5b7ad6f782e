// Demo data: a realistic organization in which every read operation returns something. Everything is created
// through the same handlers the HTTP operations use, so the data obeys the same rules (hierarchy, stages,
// timelines, uniqueness). Random choices come from a seeded generator: the same seed gives the same data.
import { actorOf } from "./core/auth.js";
import { theContract } from "./core/contract.js";
import { storeSession } from "./operations/observability.js";
import { ensureStates } from "./operations/support/references.js";
import { seedCaller, uploadedArtifact } from "./seed-calls.js";
import { days, mobileSession, random, TITLES, webSession } from "./seed-data.js";
import type { DevUser, Org, Store } from "./store/types.js";

export interface SeedOptions {
  /** How many work items to create (default 300). */
  works?: number;
  /** Seed of the random choices (default 1). */
  seed?: number;
  /** Called as work items are created: (done, total). */
  onProgress?: (done: number, total: number) => void;
}

export interface SeedSummary {
  [family: string]: number;
}

/** Loads the demo data set into the organization (the first one when none is given). */
export async function seed(
  store: Store,
  org: Org,
  admin: DevUser,
  options: SeedOptions = {},
): Promise<SeedSummary> {
  const existing = (await store.countRecords(org.id, "work")) + (await store.countRecords(org.id, "tag"));
  if (existing > 0) {
    throw new Error(
      `${org.name} already holds data (${existing} works and tags); the demo data goes into a fresh organization: ` +
        "seed an empty data directory (--data-dir) or database instead",
    );
  }
  const total = options.works ?? 300;
  const rnd = random(options.seed ?? 1);
  const contract = theContract();
  const operations = new Map(
    contract.operations
      .filter((operation) => operation.method === "POST")
      .map((operation) => [operation.name, operation] as const),
  );
  const summary: SeedSummary = {};
  const count = (family: string, n = 1) => {
    summary[family] = (summary[family] ?? 0) + n;
  };

  const run = async <T>(fn: (call: ReturnType<typeof seedCaller>, tx: Store) => Promise<T>): Promise<T> =>
    store.transaction((tx) => fn(seedCaller(tx, org, admin, operations, contract.scopes), tx));

  // People, tags, the product hierarchy, stages and a stage diagram per work type.
  const setup = await run(async (call, tx) => {
    const users = [admin];
    for (const [full, email] of [
      ["Ada Lovelace", "ada@example.com"],
      ["Grace Hopper", "grace@example.com"],
      ["Alan Turing", "alan@example.com"],
      ["Katherine Johnson", "katherine@example.com"],
    ] as const) {
      users.push(await tx.createDevUser(org, { email, full_name: full }));
      count("dev_users");
    }
    const userIds = users.map((user) => user.id);
    const tagIds: string[] = [];
    for (const name of [
      "bug",
      "regression",
      "customer-reported",
      "security",
      "performance",
      "ux",
      "backend",
      "mobile",
    ]) {
      const { tag } = await call("tags.create", { name, description: `Work concerning ${name}.` });
      tagIds.push(tag.id);
      count("tags");
    }
    const { tag: severity } = await call("tags.create", {
      name: "severity",
      description: "How bad it is.",
      allowed_values: ["low", "medium", "high"],
    });
    count("tags");

    const partIds: string[] = [];
    const owner = () => [rnd.pick(userIds)];
    for (const product of ["Workspace", "Billing"]) {
      const { part: p } = await call("parts.create", { type: "product", name: product, owned_by: owner() });
      partIds.push(p.id);
      for (const capability of ["Accounts", "Reports"]) {
        const { part: c } = await call("parts.create", {
          type: "capability",
          name: `${product} ${capability}`,
          owned_by: owner(),
          parent_part: [p.id],
        });
        partIds.push(c.id);
        for (const feature of ["Export", "Sharing"]) {
          const { part: f } = await call("parts.create", {
            type: "feature",
            name: `${product} ${capability} ${feature}`,
            owned_by: owner(),
            parent_part: [c.id],
          });
          partIds.push(f.id);
        }
      }
      const { part: e } = await call("parts.create", {
        type: "enhancement",
        name: `${product} faster start-up`,
        owned_by: owner(),
        parent_part: [p.id],
        target_start_date: days(7),
        target_close_date: days(45),
      });
      partIds.push(e.id);
    }
    count("parts", partIds.length);

    const stageIds: Record<string, string> = {};
    const stateIds = Object.fromEntries(
      (await ensureStates({ store: tx, actor: actorOf(org, admin), org })).map((state) => [
        state.data.name,
        state.id,
      ]),
    );
    for (const [name, ordinal, state] of [
      ["triage", 100, "open"],
      ["in_development", 200, "in_progress"],
      ["in_review", 300, "in_progress"],
      ["resolved", 400, "closed"],
      ["wont_fix", 500, "closed"],
    ] as const) {
      const { custom_stage } = await call("stages.custom.create", {
        name,
        ordinal,
        state: stateIds[state] as string,
      });
      stageIds[name] = custom_stage.id;
      count("custom_stages");
    }
    const transitions: Record<string, string[]> = {
      triage: ["in_development", "wont_fix"],
      in_development: ["in_review", "triage"],
      in_review: ["resolved", "in_development"],
      resolved: ["triage"],
      wont_fix: ["triage"],
    };
    for (const leaf of ["issue", "ticket", "task", "incident", "opportunity"]) {
      await call("stage-diagrams.create", {
        leaf_type: leaf,
        name: `${leaf} flow`,
        is_default: true,
        stages: Object.entries(transitions).map(([name, targets]) => ({
          stage_id: stageIds[name] as string,
          is_start: name === "triage",
          // Reopening a closed work is possible but not offered as a button.
          transitions: targets.map((target) => ({
            target_stage_id: stageIds[target] as string,
            ui: { is_hidden: target === "triage" && (name === "resolved" || name === "wont_fix") },
          })),
        })),
      });
      count("stage_diagrams");
    }
    // Customers (tickets are for them) and the sprint issues are planned in.
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
    const { vista: sprint } = await call("vistas.create", {
      name: "Sprint 41",
      type: "grouped",
      flavor: "sprint_board",
      object_type: "works",
      state: "active",
    });
    count("vistas");
    return { userIds, tagIds, severity: severity.id, partIds, stageIds, accountIds, sprint: sprint.id };
  });

  // Work items, in batches of one transaction each.
  const types = ["issue", "ticket", "task", "incident", "opportunity"] as const;
  const stageNames = ["triage", "in_development", "in_review", "resolved", "wont_fix"];
  const workIds: string[] = [];
  const workDisplayIds: string[] = [];
  const batch = 250;
  /** The members of an issue (planning) or a ticket (customer); other types have none. */
  const typeMembers = (type: (typeof types)[number]) => {
    if (type === "issue") {
      return {
        priority: rnd.pick(["p0", "p1", "p2", "p3"] as const),
        target_start_date: days(rnd.int(-20, 20)),
        estimated_effort: rnd.int(1, 13),
        sprint: setup.sprint,
      };
    }
    if (type === "ticket") {
      return {
        severity: rnd.pick(["blocker", "high", "medium", "low"] as const),
        account: rnd.pick(setup.accountIds),
        channels: [rnd.pick(["email", "plug", "slack"] as const)],
        group: rnd.pick(["support-l1", "support-l2"]),
        needs_response: rnd.next() < 0.5,
        source_channel: "email",
      };
    }
    return {};
  };
  for (let start = 0; start < total; start += batch) {
    await run(async (call) => {
      for (let i = start; i < Math.min(total, start + batch); i++) {
        const type = types[i % types.length] as (typeof types)[number];
        // Every fourth work carries a file with two versions (the fourth spreads them over the types).
        const artifacts =
          i % 4 === 0
            ? [await uploadedArtifact(call, `report-${i + 1}.txt`, "text/plain", ["first draft", "final"])]
            : [];
        const { work } = await call("works.create", {
          ...typeMembers(type),
          ...(artifacts.length > 0 ? { artifacts } : {}),
          type,
          title: `${rnd.pick(TITLES)} (#${i + 1})`,
          body: "Steps to reproduce, expected and actual behaviour are in the first comment.",
          applies_to_part: rnd.pick(setup.partIds),
          owned_by: [rnd.pick(setup.userIds)],
          reported_by: rnd.some(setup.userIds, 2),
          tags: [
            ...rnd.some(setup.tagIds, 2).map((id) => ({ id })),
            ...(rnd.next() < 0.3 ? [{ id: setup.severity, value: rnd.pick(["low", "medium", "high"]) }] : []),
          ],
          stage: { name: rnd.pick(stageNames) },
          target_close_date: days(rnd.int(-30, 60)),
          external_ref: `seed-${options.seed ?? 1}-${i + 1}`,
        });
        workIds.push(work.id);
        workDisplayIds.push(work.display_id);
      }
    });
    options.onProgress?.(Math.min(total, start + batch), total);
  }
  count("works", workIds.length);

  // Customers and their conversations, content, configuration.
  await run(async (call) => {
    const { accountIds } = setup;
    for (let i = 0; i < 24; i++) {
      await call("conversations.create", {
        type: "support",
        title: `${rnd.pick(["Cannot", "Unable to", "How do I"])} ${rnd.pick(["export", "log in", "invite a colleague", "change plan"])}`,
        account: rnd.pick(accountIds),
        owned_by: [rnd.pick(setup.userIds)],
        members: rnd.some(setup.userIds, 2),
        stage: { name: rnd.pick(stageNames) },
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

    const articleIds: string[] = [];
    for (const title of ["Getting started", "Inviting your team", "Exporting data", "Billing and invoices"]) {
      const { article } = await call("articles.create", {
        title,
        owned_by: [rnd.pick(setup.userIds)],
        resource: { url: `https://help.example.com/${title.toLowerCase().replaceAll(" ", "-")}` },
        status: "published",
        applies_to_parts: [rnd.pick(setup.partIds)],
      });
      articleIds.push(article.id);
      await call("articles.create", {
        title: `${title}: step by step`,
        owned_by: [rnd.pick(setup.userIds)],
        resource: { url: `https://help.example.com/${title.toLowerCase().replaceAll(" ", "-")}/steps` },
        parent: article.id,
        status: "published",
      });
      count("articles", 2);
    }
    for (let i = 0; i < 12; i++) {
      await call("code-changes.create", {
        title: `Fix: ${rnd.pick(TITLES).toLowerCase()}`,
        branch: `fix/${i + 1}`,
        target_branch: "main",
        commit_id: (0x1000000 + i * 7919).toString(16),
        repo_url: "https://git.example.com/acme/app",
        source: "github",
        total_loc: {
          file_count: rnd.int(1, 12),
          lines_added: rnd.int(1, 400),
          lines_deleted: rnd.int(0, 200),
          lines_modified: rnd.int(0, 50),
        },
      });
      count("code_changes");
    }
    await call("surveys.create", {
      name: "Support satisfaction",
      title: "How did we do?",
      description: "Sent when a conversation is resolved.",
      schema: [
        { name: "rating", field_type: "int", description: "1 to 5", is_required: true },
        // The platform's shape: no field_type; the kind follows from uenum_values and validation.
        {
          name: "resolved",
          description: "Was the problem solved?",
          uenum_values: [
            { id: 1, label: "Yes", ordinal: 1 },
            { id: 2, label: "No", ordinal: 2 },
          ],
        },
        { name: "comment", description: "Anything else?", validation: { max_len: 500 } },
      ],
    });
    await call("surveys.create", { name: "Onboarding feedback", header: "Welcome aboard" });
    count("surveys", 2);

    const { sla: draft } = await call("slas.create", {
      name: "Standard support",
      applies_to: ["conversation", "ticket"],
      evaluation_period: "monthly",
      policies: [
        {
          name: "High priority",
          selector: { applies_to: "ticket" },
          metrics: [{ metric: "first_response", target: 60 }],
        },
        {
          name: "Everything else",
          selector: { applies_to: "conversation", ticket_source_channel: ["email"] },
          metrics: [{ metric: "first_response", target: 480 }],
        },
      ],
    });
    const { sla: premium } = await call("slas.create", {
      name: "Premium support",
      applies_to: ["ticket", "incident"],
      sla_type: "external",
    });
    await call("slas.transition", { id: premium.id, status: "published" });
    await call("slas.create", { name: "Internal incidents", applies_to: ["incident"], sla_type: "internal" });
    void draft;
    count("slas", 3);

    const { org_schedule_fragment: holidays } = await call("org-schedule-fragments.create", {
      name: "Holidays 2027",
      from: "2027-01-01T00:00:00.000Z",
      to: "2028-01-01T00:00:00.000Z",
      region_codes: ["US", "GB"],
      intervals: [
        { name: "New Year's Day", from: "2027-01-01T00:00:00.000Z", is_excluded: true },
        { name: "Christmas Day", from: "2027-12-25T00:00:00.000Z", is_excluded: true },
      ],
    });
    await call("org-schedules.create", {
      name: "Business hours (Europe)",
      timezone: "Europe/Berlin",
      org_schedule_fragments: [{ id: holidays.id }],
    });
    await call("org-schedules.create", { name: "Business hours (US)", timezone: "America/New_York" });
    count("org_schedule_fragments");
    count("org_schedules", 2);

    await call("vistas.create", {
      name: "My open issues",
      type: "curated",
      object_type: "works",
      items: workIds.slice(0, 10).map((id) => ({ id })),
    });
    await call("vistas.create", {
      name: "Support inbox",
      type: "dynamic",
      flavor: "support_inbox",
      object_type: "conversations",
      filter: { stage: { name: ["triage"] } },
    });
    await call("vistas.create", {
      name: "Urgent tickets",
      type: "dynamic",
      object_type: "works",
      filter: { type: ["ticket"], ticket: { severity: ["blocker", "high"] } },
    });
    await call("vistas.create", {
      name: "Sprint 42",
      type: "grouped",
      flavor: "sprint_board",
      object_type: "works",
      state: "planned",
      items: workIds.slice(10, 20).map((id) => ({ id })),
    });
    count("vistas", 4);

    for (let i = 0; i < 20; i++) {
      await call("custom-objects.create", {
        leaf_type: "campaign",
        title: `Campaign ${i + 1}`,
        unique_key: `campaign-${i + 1}`,
        custom_fields: {
          tnt__priority: rnd.pick(["low", "medium", "high"]),
          tnt__budget: rnd.int(1, 100) * 1000,
        },
        custom_schema_spec: { tenant_fragment: true },
      });
      count("custom_objects");
    }
    for (const [index, workId] of workIds.slice(0, 30).entries()) {
      await call("timeline-entries.create", {
        type: "timeline_comment",
        object: workId,
        // Comments after the first name the work before them, which becomes a reference of the comment.
        body: index === 0 ? "Reproduced on the latest build." : `Same cause as ${workDisplayIds[index - 1]}.`,
        visibility: "internal",
      });
      count("timeline_comments");
    }
  });

  await store.transaction(async (tx) => {
    const actor = actorOf(org, admin);
    for (let i = 0; i < 3; i++) {
      await storeSession(tx, actor, mobileSession(i));
      await storeSession(tx, actor, webSession(i));
      count("observability_sessions", 2);
    }
  });
  return summary;
}
