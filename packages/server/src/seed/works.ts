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
}

/** Makes `options.total` works, each batch through `run` (one transaction with its own caller). */
export async function makeWorks(
  run: (fn: (call: Call) => Promise<void>) => Promise<void>,
  { rnd, count }: Omit<Builder, "call">,
  setup: Setup,
  options: WorksOptions,
): Promise<Works> {
  const works: Works = { workIds: [], workDisplayIds: [] };
  const { total } = options;
  for (let start = 0; start < total; start += BATCH) {
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
