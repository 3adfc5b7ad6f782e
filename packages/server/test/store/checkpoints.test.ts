// WAL checkpoints of a SQLite file on a checkpoint thread (src/store/checkpoints.ts): the wal-index header
// read to count the frames not yet copied, the writing connection left alone, the thread doing the copying.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { endianness, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CHECKPOINT_FRAMES, pendingFrames, WAL_INDEX_BYTES } from "../../src/store/checkpoints.js";
import { type OpenStoreOptions, openStore } from "../../src/store/open.js";
import type { Actor, Store } from "../../src/store/types.js";

const u32 = (buffer: Buffer, offset: number) =>
  endianness() === "LE" ? buffer.readUInt32LE(offset) : buffer.readUInt32BE(offset);

/** A wal-index header (both copies) saying `maxFrame` frames, `backfilled` of them copied. */
function header(maxFrame: number, backfilled: number, version = 3007000): Buffer {
  const buffer = Buffer.alloc(WAL_INDEX_BYTES);
  const write = (value: number, offset: number) =>
    endianness() === "LE" ? buffer.writeUInt32LE(value, offset) : buffer.writeUInt32BE(value, offset);
  for (const base of [0, 48]) {
    write(version, base);
    write(maxFrame, base + 16);
  }
  write(backfilled, 96);
  return buffer;
}

describe("the wal-index header", () => {
  it("says how many frames wait to be copied", () => {
    expect(pendingFrames(header(1500, 200))).toBe(1300);
    expect(pendingFrames(header(0, 0))).toBe(0);
  });

  it("says nothing when read while a writer changed it, or when it is not one SQLite 3.7+ wrote", () => {
    const torn = header(1500, 200);
    torn.writeUInt8(torn.readUInt8(16) + 1, 16);
    expect(pendingFrames(torn)).toBeUndefined();
    expect(pendingFrames(header(1500, 200, 3006000))).toBeUndefined();
    expect(pendingFrames(header(10, 20))).toBeUndefined();
    expect(pendingFrames(Buffer.alloc(10))).toBeUndefined();
  });
});

describe("checkpoints of a SQLite file", () => {
  let dir: string | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A store on a new file, and an actor whose records fill it: some 20 frames per transaction. */
  async function open(checkpoints: OpenStoreOptions["checkpoints"]) {
    dir = mkdtempSync(join(tmpdir(), "workapi-checkpoints-"));
    const dataDir = join(dir, "data");
    store = await openStore({ dataDir, ...(checkpoints ? { checkpoints } : {}) });
    const org = await store.createOrg("Checkpoints");
    const user = await store.createDevUser(org, { email: "c@example.com", full_name: "C" });
    const { type, id, display_id, display_name, email, full_name, state } = user;
    const ref = { type, id, display_id, display_name, email, full_name, state };
    const actor: Actor = { orgId: org.id, orgNumber: org.number, user: ref };
    const index = () => readFileSync(join(dataDir, "workapi.sqlite-shm")).subarray(0, WAL_INDEX_BYTES);
    return { store, actor, index, dataDir };
  }

  /** Writes transactions of records until the WAL holds `frames` frames. */
  async function fill(s: Store, actor: Actor, index: () => Buffer, frames: number) {
    const big = "x".repeat(3000);
    let written = 0;
    for (let i = 0; i < 5000 && u32(index(), 16) < frames; i++) {
      await s.transaction(async (tx) => {
        for (let n = 0; n < 5; n++) {
          await tx.createRecord(actor, { kind: "work", idType: "issue", prefix: "ISS", data: { big, i, n } });
          written++;
        }
      });
    }
    return written;
  }

  it("leaves them to the checkpoint thread: the writer does not copy, the thread does", async () => {
    // Without the thread ("backstop"), nothing is copied below the backstop's 10,000 frames.
    const alone = await open("backstop");
    await fill(alone.store, alone.actor, alone.index, 3 * CHECKPOINT_FRAMES);
    const before = alone.index();
    expect(pendingFrames(before)).toBeGreaterThanOrEqual(3 * CHECKPOINT_FRAMES);
    expect(u32(before, 96)).toBe(0);
    await alone.store.close();
    store = undefined;
    rmSync(dir as string, { recursive: true, force: true });

    // With it, the frames are copied soon after a commit leaves CHECKPOINT_FRAMES of them waiting.
    const threaded = await open("thread");
    const written = await fill(threaded.store, threaded.actor, threaded.index, 3 * CHECKPOINT_FRAMES);
    let pending = pendingFrames(threaded.index());
    for (let wait = 0; wait < 200 && (pending === undefined || pending >= CHECKPOINT_FRAMES); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      pending = pendingFrames(threaded.index());
    }
    expect(pending).toBeLessThan(CHECKPOINT_FRAMES);
    // Every record is there, on this store and on the file opened again.
    expect(await threaded.store.countRecords(threaded.actor.orgId, "work")).toBe(written);
    await threaded.store.close();
    const reopened = await openStore({ dataDir: threaded.dataDir });
    store = reopened;
    expect(await reopened.countRecords(threaded.actor.orgId, "work")).toBe(written);
  });
});
