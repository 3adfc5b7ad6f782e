// Work items of all five types, in batches of one transaction each.
import { type Call, uploadedArtifact } from "./calls.js";
import { type Builder, type Setup, STAGE_NAMES } from "./context.js";
import { days, TITLES } from "./data.js";

const TYPES = ["issue", "ticket", "task", "incident", "opportunity"] as const;
type WorkType = (typeof TYPES)[number];
const BATCH = 250;

export interface Works {
  workIds: string[];
  workDisplayIds: string[];
}

export interface WorksOptions {
  total: number;
  /** The seed of the random choices, part of each work's external reference. */
  seed: number;
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Brings the planner's statistics up to date (Store.updateStatistics). */
  updateStatistics: () => Promise<void>;
}

/**
 * Makes `options.total` works, each batch through `run` (one transaction with its own caller). The planner's
 * statistics are brought up to date before the first batch and whenever the works have doubled since they
 * last were (the seed brings them up to date once more at the end): a plan made while
 * the tables were nearly empty (a PostgreSQL connection keeps the generic plan of each prepared statement)
 * read a work by id through the (org_id, kind, ...) index, every work of the organization, and every create
 * reads several records by id: 3,000 works took 62 s and 10,000 over 6 minutes without (PostgreSQL fetched
 * 8.5 million rows for 3,000 works, 131,000 with). An ANALYZE makes PostgreSQL plan its statements again
 * (it invalidates the plans of the tables it analyzed). Doubling keeps
 * the statistics within a factor of two of the table for a handful of ANALYZEs (autovacuum, when it runs,
 * analyzes after a tenth of a table has changed; on a long bulk load it comes round too late, and it may be
 * off).
 */
export async function makeWorks(
  run: (fn: (call: Call) => Promise<void>) => Promise<void>,
  { rnd, count }: Omit<Builder, "call">,
  setup: Setup,
  options: WorksOptions,
): Promise<Works> {
  const works: Works = { workIds: [], workDisplayIds: [] };
  const { total } = options;
  let analyzedAt = 0;
  for (let start = 0; start < total; start += BATCH) {
    // Before the first batch (the setup's records are in), and whenever the works have doubled since.
    if (start >= 2 * analyzedAt) {
      await options.updateStatistics();
      analyzedAt = start;
    }
    await run(async (call) => {
      for (let i = start; i < Math.min(total, start + BATCH); i++) {
        const { work } = await makeWork({ call, rnd, count }, setup, i, options.seed);
        works.workIds.push(work.id);
        works.workDisplayIds.push(work.display_id);
      }
    });
    options.onProgress?.(Math.min(total, start + BATCH), total);
  }
  count("works", works.workIds.length);
  return works;
}

/** The `i`th work (counting from 0); its type follows from `i`. */
async function makeWork({ call, rnd }: Builder, setup: Setup, i: number, seed: number) {
  const type = TYPES[i % TYPES.length] as WorkType;
  // Every fourth work carries a file with two versions (the fourth spreads them over the types).
  const artifacts =
    i % 4 === 0
      ? [await uploadedArtifact(call, `report-${i + 1}.txt`, "text/plain", ["first draft", "final"])]
      : [];
  return call("works.create", {
    ...typeMembers(rnd, setup, type),
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
    stage: { name: rnd.pick(STAGE_NAMES) },
    target_close_date: days(rnd.int(-30, 60)),
    external_ref: `seed-${seed}-${i + 1}`,
  });
}

/** The members of an issue (planning) or a ticket (customer); other types have none. */
function typeMembers(rnd: Builder["rnd"], setup: Setup, type: WorkType) {
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
}
