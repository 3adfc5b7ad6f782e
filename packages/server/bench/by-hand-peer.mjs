// The by-hand floor (bench/by-hand.mjs) as a peer of bench/run.mjs: started on the bench's SQLite file, and
// refused unless it answers each measured request with the server's exact bytes.
import { join } from "node:path";

/** Starts bench/by-hand.mjs on the SQLite file of `dataDir`; `helpers` are the run's children helpers. */
export async function startByHand({ start, freePort, ready }, dataDir, probePath, headers) {
  const port = await freePort();
  const proc = start("by-hand", process.execPath, [
    join(import.meta.dirname, "by-hand.mjs"),
    join(dataDir, "workapi.sqlite"),
    String(port),
  ]);
  proc.url = `http://127.0.0.1:${port}`;
  await ready(proc, `${proc.url}${probePath}`, headers);
  return proc;
}

/** Throws unless `peer` answers every path in `paths` with the same status and body bytes as `ours`. */
export async function requireSameBytes(ours, peer, paths, headers) {
  for (const path of paths) {
    const [a, b] = await Promise.all(
      [ours, peer].map(async (url) => {
        const response = await fetch(`${url}${path}`, { headers });
        return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
      }),
    );
    if (a.status !== b.status || !a.body.equals(b.body)) {
      throw new Error(
        `the by-hand peer's answer to ${path} differs from the server's (${b.status}, ${b.body.length} bytes vs ${a.status}, ${a.body.length} bytes)`,
      );
    }
  }
}
