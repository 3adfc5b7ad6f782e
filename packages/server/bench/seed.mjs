// Benchmark: how long seeding takes. Seeds N work items (default 10,000) through the handlers, and, as a
// baseline measured in the same run, writes the same number of bare records straight into the store.
// Prints seconds, works per second and the ratio of the two.
//
//   pnpm --filter @workapi/server bench:seed [works=10000]
import { performance } from "node:perf_hooks";
import { seed } from "../dist/seed/index.js";
import { bootstrap } from "../dist/server.js";
import { openStore } from "../dist/store/open.js";

const works = Number(process.argv[2] ?? 10_000);

const baselineStore = await openStore({ dataDir: ":memory:" });
const org = await baselineStore.createOrg("baseline");
const user = await baselineStore.createDevUser(org, { email: "b@example.com", full_name: "Baseline" });
const { org_id: _o, created_date: _c, ...summary } = user;
const actor = { orgId: org.id, orgNumber: org.number, user: summary };
let started = performance.now();
for (let start = 0; start < works; start += 250) {
  await baselineStore.transaction(async (tx) => {
    for (let i = start; i < Math.min(works, start + 250); i++) {
      await tx.createRecord(actor, {
        kind: "work",
        idType: "issue",
        prefix: "ISS",
        label: `work ${i}`,
        data: { title: `work ${i}` },
      });
    }
  });
}
const baseline = (performance.now() - started) / 1000;
await baselineStore.close();

const store = await openStore({ dataDir: ":memory:" });
const first = await bootstrap(store);
started = performance.now();
await seed(store, first.org, first.admin, { works });
const seeded = (performance.now() - started) / 1000;
await store.close();

console.log(
  `bare records: ${works} in ${baseline.toFixed(2)} s (${Math.round(works / baseline)} per second)`,
);
console.log(
  `seed:         ${works} works in ${seeded.toFixed(2)} s (${Math.round(works / seeded)} per second), with every other family`,
);
console.log(`ratio seed / bare records: ${(seeded / baseline).toFixed(1)}x`);
