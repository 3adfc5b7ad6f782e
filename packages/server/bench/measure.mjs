// Measuring: autocannon loads, timed calls and medians.
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Drives `target` with autocannon; `rps` counts 2xx answers only (a refusal is not throughput), `non2xx` the
 * others. Fails when more than 1% of the answers are not 2xx: such a run measures something else.
 */
export async function load(target, { connections, duration }) {
  const result = await autocannon({
    url: target.url,
    method: target.method ?? "GET",
    headers: target.headers ?? {},
    ...(target.body ? { body: target.body } : {}),
    connections,
    duration,
  });
  const ok = result["2xx"];
  const bad = result.non2xx + result.errors + result.timeouts;
  if (ok === 0 || bad > ok / 100) {
    throw new Error(`${target.label}: ${ok} answers 2xx, ${result.non2xx} others, ${result.errors} errors`);
  }
  return { rps: ok / result.duration, p99: result.latency.p99, non2xx: result.non2xx };
}

export async function getJson(url, headers) {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * Median milliseconds of `fn` over `runs` calls, interleaved with the other functions given; `every`, when
 * given, receives each function's milliseconds of every run (the bench keeps them in its raw figures).
 */
export async function interleavedTimes(fns, runs, every) {
  const times = fns.map(() => []);
  for (let run = 0; run < runs; run++) {
    for (const [i, fn] of fns.entries()) {
      const t = performance.now();
      await fn();
      times[i].push(performance.now() - t);
    }
  }
  every?.(times);
  return times.map(median);
}
