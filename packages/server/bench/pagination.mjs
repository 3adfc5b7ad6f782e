// Benchmark: does the cost of a page depend on how deep it lies? Fills one organization with many tags, then
// times fetching a page at increasing depths (reached through cursors) and prints medians and the ratio to the
// first page, measured in the same run. Keyset pagination should stay near 1x; OFFSET would grow linearly.
//
//   pnpm --filter @workapi/server bench:pagination [records=20000] [database-url]
import { performance } from "node:perf_hooks";
import { dropPostgresSchema, openStore } from "../dist/store/open.js";

const total = Number(process.argv[2] ?? 20_000);
const databaseUrl = process.argv[3];
const schema = `bench_${Date.now()}`;
const store = await openStore(
  databaseUrl ? { databaseUrl, postgresSchema: schema } : { dataDir: ":memory:" },
);
const org = await store.createOrg("bench");
const user = await store.createDevUser(org, { email: "bench@example.com", full_name: "Bench" });
const { org_id: _o, created_date: _c, ...summary } = user;
const actor = { orgId: org.id, orgNumber: org.number, user: summary };

const fillStart = performance.now();
for (let start = 0; start < total; start += 1000) {
  await store.transaction(async (tx) => {
    for (let i = start; i < Math.min(total, start + 1000); i++) {
      await tx.createRecord(actor, {
        kind: "tag",
        idType: "tag",
        prefix: "TAG",
        label: `tag-${String(i).padStart(6, "0")}`,
        data: { name: `tag-${i}` },
      });
    }
  });
}
console.log(
  `filled ${total} tags in ${((performance.now() - fillStart) / 1000).toFixed(1)} s (${databaseUrl ? "PostgreSQL" : "SQLite"})`,
);

const limit = 50;
const sorts = { "created_date asc": undefined, "label desc": [{ path: "label", direction: "desc" }] };
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

for (const [name, sort] of Object.entries(sorts)) {
  // Collect the cursors of every page once, then time single pages at chosen depths.
  const cursors = [undefined];
  let cursor;
  do {
    const page = await store.listRecords(org.id, "tag", {
      limit,
      ...(sort ? { sort } : {}),
      ...(cursor ? { cursor } : {}),
    });
    cursor = page.next_cursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  const depths = [0, Math.floor(cursors.length / 10), Math.floor(cursors.length / 2), cursors.length - 1];
  const results = [];
  for (const depth of depths) {
    const times = [];
    for (let run = 0; run < 41; run++) {
      const started = performance.now();
      await store.listRecords(org.id, "tag", {
        limit,
        ...(sort ? { sort } : {}),
        ...(cursors[depth] ? { cursor: cursors[depth] } : {}),
      });
      times.push(performance.now() - started);
    }
    results.push({ depth, ms: median(times) });
  }
  const base = results[0].ms;
  console.log(`\nsort ${name}: ${cursors.length} pages of ${limit}`);
  for (const { depth, ms } of results) {
    console.log(
      `  page ${String(depth + 1).padStart(5)} (row ${String(depth * limit).padStart(6)}): median ${ms.toFixed(3)} ms  ${(ms / base).toFixed(2)}x page 1`,
    );
  }
}
await store.close();
if (databaseUrl) await dropPostgresSchema(databaseUrl, schema);
