// A parallel test suite as the stand-in's users run one: `files` test files at once, each making a seeded
// sandbox, then `rounds` rounds of tags.create, works.create, works.update, works.get, works.list and
// tags.list in it, then deleting it. Raw fetch, no retries (as the platform's SDK sends), and every caller
// waits for each answer before sending the next. Used by the fault suite (test/faults.test.ts), which asserts
// that nothing but the expected statuses comes back, and by bench:shedding, which prints the same counts.
import { temporaryDatabase } from "../test/support/databases.mjs";
import { postJson } from "../test/support/servers.mjs";

/** The status each step expects. */
const EXPECTED = {
  "sandboxes.create": 201,
  "works.list": 200,
  "tags.create": 201,
  "works.create": 201,
  "works.update": 200,
  "works.get": 200,
  "tags.list": 200,
  "sandboxes.delete": 200,
};

/**
 * Runs the suite against the server at `url`, whose `token` holds sandbox:admin. Answers how many requests
 * were sent, how many got 503 and 5xx, each unexpected answer (operation, status, the error's type), and the
 * latencies (ms) of the seeded creates.
 */
export async function parallelSuite({ url, token, files, rounds = 10, seed = true }) {
  const result = { requests: 0, refused: 0, serverErrors: 0, unexpected: [], createMs: [], ms: [] };
  const call = async (operation, bearer, body, method = "POST") => {
    const started = performance.now();
    const target =
      method === "GET" ? `${url}/${operation}?${new URLSearchParams(body)}` : `${url}/${operation}`;
    const response = await fetch(target, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(method === "POST" ? { "content-type": "application/json" } : {}),
      },
      ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    result.requests++;
    result.ms.push(ms);
    if (response.status === 503) result.refused++;
    if (response.status >= 500) result.serverErrors++;
    if (response.status !== EXPECTED[operation]) {
      let type;
      try {
        type = JSON.parse(text).type;
      } catch {
        type = text.slice(0, 80);
      }
      result.unexpected.push({ operation, status: response.status, type });
      return undefined;
    }
    return { body: JSON.parse(text), ms };
  };
  const file = async (index) => {
    const made = await call("sandboxes.create", token, { name: `suite file ${index}`, seed });
    if (!made) return;
    result.createMs.push(made.ms);
    const { id, token: own } = made.body.sandbox;
    try {
      const listed = await call("works.list", own, { limit: "1" }, "GET");
      const sample = listed?.body.works[0];
      if (!sample) return;
      const part = sample.applies_to_part.id;
      const owner = sample.owned_by[0].id;
      for (let round = 0; round < rounds; round++) {
        const tag = await call("tags.create", own, { name: `file-${index}-round-${round}` });
        const work = await call("works.create", own, {
          type: "issue",
          title: `file ${index}, round ${round}`,
          applies_to_part: part,
          owned_by: [owner],
          ...(tag ? { tags: [{ id: tag.body.tag.id }] } : {}),
        });
        if (!work) continue;
        const workId = work.body.work.id;
        await call("works.update", own, { id: workId, title: `file ${index}, round ${round}, updated` });
        await call("works.get", own, { id: workId }, "GET");
        await call("works.list", own, { limit: "20" }, "GET");
        await call("tags.list", own, { limit: "20" }, "GET");
      }
    } finally {
      await call("sandboxes.delete", token, { id });
    }
  };
  await Promise.all(Array.from({ length: files }, (_, index) => file(index)));
  return result;
}

/** `count` sandboxes.create at once, then one works.list in the first; the counts of parallelSuite's form. */
export async function burst(target, count, seed) {
  const result = { requests: 0, refused: 0, serverErrors: 0, unexpected: [], createMs: [], ms: [] };
  const note = (operation, expected, answer, started) => {
    const body = typeof answer.body === "object" && answer.body !== null ? answer.body : {};
    result.requests++;
    result.ms.push(performance.now() - started);
    if (answer.status === 503) result.refused++;
    if (answer.status >= 500) result.serverErrors++;
    if (answer.status !== expected)
      result.unexpected.push({ operation, status: answer.status, type: body.type });
    return body;
  };
  const post = (path, bearer, body) => postJson(target.url, bearer, path, body);
  for (let attempt = 0; attempt < 5; attempt++) {
    const made = await Promise.all(
      Array.from({ length: count }, async () => {
        const started = performance.now();
        const body = note(
          "sandboxes.create",
          201,
          await post("/sandboxes.create", target.token, { seed }),
          started,
        );
        result.createMs.push(performance.now() - started);
        return body.sandbox;
      }),
    );
    const first = made.find(Boolean);
    const started = performance.now();
    const one = await fetch(`${target.url}/works.list?limit=5`, {
      headers: { authorization: `Bearer ${first?.token}` },
    });
    note("works.list", 200, { status: one.status, body: await one.json().catch(() => ({})) }, started);
    await Promise.all(
      made.filter(Boolean).map((sandbox) => post("/sandboxes.delete", target.token, { id: sandbox.id })),
    );
  }
  return result;
}

/** A database of its own on the server of DATABASE_URL, and how to drop it. */
export function ownDatabase() {
  return temporaryDatabase(process.env.DATABASE_URL, "bench_suites");
}

/** The `p`th percentile of `values` (nearest rank). */
export function percentileOf(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}
