// The answers of reads, kept while what they were made from is unchanged. On a store that says what is
// committed (`changes`: a SQLite file, or PostgreSQL), a read whose handler answered from stored documents as
// they are (a JsonText: works.get, the pages of tags.list and the other lists) is kept under its operation,
// its caller's organization, user and scopes, the base URL and its query string as sent, with the change
// count of every family of records it read (and of credentials, when it read organizations, users or
// tokens), as read before it ran. A later request asking the same is answered the kept bytes while those
// counts, as read for that request, are unchanged (see ../store/changes.ts): no input check, no handler, no
// query. Exact: a change committed before a request began, by any connection of any process, is counted in
// what the request reads (the argument is in the server README, "Kept answers and credentials").
import { type Changes, oneRecordCounts, type Snapshot } from "../store/changes.js";
import type { Store } from "../store/types.js";
import type { Authenticated } from "./auth.js";
import type { RequestFacts } from "./context.js";
import type { Operation } from "./contract.js";
import { JsonText } from "./json-text.js";

interface Kept {
  answer: JsonText;
  bytes: number;
  /** The count of each family read, when the answer was made. */
  families: ReadonlyArray<readonly [string, number]>;
  /** The count of credentials, when it read organizations, users or tokens. */
  credentials: number | undefined;
}

/** The store's reads of records, by method: the argument that names the family (a kind, or a list of kinds). */
const FAMILY_READS: ReadonlySet<string> = new Set([
  "getRecord",
  "getRecordJson",
  "listRecords",
  "listRecordJson",
  "findRecords",
  "findRecordJson",
  "findBySubtype",
  "countRecords",
]);
/** The store's reads of organizations, users and tokens: what credential changes count. */
const CREDENTIAL_READS: ReadonlySet<string> = new Set([
  "getOrg",
  "listOrgs",
  "getDevUser",
  "listDevUsers",
  "findTokenByHash",
  "findCredentials",
  "getToken",
  "listTokens",
]);

/**
 * The store's reads of one record by its id or display id (the family argument, then the id). One found by
 * its id is changed only by an update or delete of it: ids are unique, so no insert can change what such a
 * read answers, and the read is kept under its family's count of updates and deletes (`rewritesOf`). A
 * works.get answer then stays kept while other work items are created (a suite creating and reading does
 * both at once). A read that found nothing, or found its record by display id (not unique: a record
 * committed later may hold it too and be the one answered), depends on inserts: the family's count.
 */
const ONE_RECORD_READS: ReadonlySet<string> = new Set(["getRecord", "getRecordJson"]);

/** What one handler run read through the store (see `recording`). */
class Reads {
  readonly families = new Set<string>();
  credentials = false;
  /** A read no count covers (a record of any kind, anything but the reads above): not kept. */
  uncovered = false;
}

/** `store`, noting in `reads` every family (or credentials) read through it. */
function recording(store: Store, reads: Reads): Store {
  return new Proxy(store, {
    get(target, property) {
      // Read on the store itself: its methods and getters use its private fields.
      const value = Reflect.get(target, property);
      if (typeof value !== "function" || typeof property !== "string") return value;
      return (...args: unknown[]) => {
        if (FAMILY_READS.has(property)) {
          const kinds = args[1];
          const named = typeof kinds === "string" ? [kinds] : Array.isArray(kinds) ? kinds : [];
          if (named.length === 0) reads.uncovered = true;
          else if (ONE_RECORD_READS.has(property)) {
            return oneRecord(
              value.apply(target, args) as Promise<unknown>,
              named.map(String),
              args[2],
              reads,
            );
          }
          for (const kind of named) reads.families.add(String(kind));
        } else if (CREDENTIAL_READS.has(property)) {
          reads.credentials = true;
        } else {
          reads.uncovered = true;
        }
        return value.apply(target, args);
      };
    },
  });
}

/** How many scope texts `scopesKey` remembers the number of. */
const REMEMBERED_SCOPE_TEXTS = 10_000;
const scopeKeys = new WeakMap<readonly string[], number>();
const keysOfScopeTexts = new Map<string, number>();
let nextScopeKey = 0;

/**
 * A token's scopes in a kept answer's key: a number per distinct list of scopes, found once per list (the
 * kept credentials hand every request the same list). The key held an admin token's 90 scopes as text
 * before: hashing that key of some 1,500 characters on every request was 5.5% of a kept read's CPU profile.
 * A number is never given twice, so forgetting the texts (past REMEMBERED_SCOPE_TEXTS) only gives a list seen
 * again a new number: its kept answers are made again, never another list's served.
 */
function scopesKey(scopes: readonly string[]): number {
  let key = scopeKeys.get(scopes);
  if (key === undefined) {
    const text = scopes.join(" ");
    key = keysOfScopeTexts.get(text);
    if (key === undefined) {
      if (keysOfScopeTexts.size >= REMEMBERED_SCOPE_TEXTS) keysOfScopeTexts.clear();
      key = nextScopeKey++;
      keysOfScopeTexts.set(text, key);
    }
    scopeKeys.set(scopes, key);
  }
  return key;
}

/** Notes in `reads` what a read of one record (`id`, of the families `kinds`) depends on (see ONE_RECORD_READS). */
async function oneRecord(
  read: Promise<unknown>,
  kinds: string[],
  id: unknown,
  reads: Reads,
): Promise<unknown> {
  let found: unknown;
  try {
    found = await read;
  } finally {
    for (const family of oneRecordCounts(kinds, id, found)) reads.families.add(family);
  }
  return found;
}

export class AnswerCache {
  readonly #entries = new Map<string, Kept>();
  #bytes = 0;
  /**
   * The read of each key running now, and what it will keep (undefined: nothing). A change to a family makes
   * every kept answer that read it stale at once: on PostgreSQL the requests of a turn share one read of the
   * counts, so the callers of one works.get missed together, and each read the record (six callers just
   * after a change: five reads, test/answers.test.ts) where one answer served them all. A request
   * that misses while the same key is being read waits for that read and takes its answer when it is current
   * for the request's own counts, the test a kept answer passes (`get`); otherwise it reads for itself.
   */
  readonly #reading = new Map<string, Promise<Kept | undefined>>();

  /** `maxBytes`: the answers kept take at most this many bytes; the oldest kept go first. */
  constructor(
    private readonly changes: Changes,
    private readonly maxBytes: number,
  ) {}

  /** What identifies a read's answer. */
  key(operation: Operation, caller: Authenticated, facts: RequestFacts, query: string): string {
    const { org, user, token } = caller;
    return `${operation.name}\n${org.id}\n${user.id}\n${scopesKey(token.scopes)}\n${facts.baseUrl}\n${query}`;
  }

  /** What is committed now, for a caller that has not read it during its request. */
  committed(): Snapshot | Promise<Snapshot> {
    return this.changes.now();
  }

  /** The kept answer of `key`, when what it was made from is unchanged `at` (what is committed now). */
  get(key: string, at: Snapshot): JsonText | undefined {
    const kept = this.#entries.get(key);
    if (!kept) return undefined;
    if (this.#current(kept, at)) return kept.answer;
    this.#drop(key, kept);
    return undefined;
  }

  /**
   * The answer of a read of `key` running now, once it ends, when it is current `at` (what is committed as this
   * request reads it); undefined when no read runs or its answer is not current (the caller reads for itself).
   */
  async shared(key: string, at: Snapshot): Promise<JsonText | undefined> {
    const running = this.#reading.get(key);
    if (!running) return undefined;
    const made = await running;
    return made && this.#current(made, at) ? made.answer : undefined;
  }

  /**
   * Runs `read` on a store that notes what it reads, and keeps its answer under `key` with the counts `at`
   * (read before `read` runs) when it is stored documents as they are. Not when something is known to have
   * been committed while it ran: the answer may then be newer than those counts, and the next request would
   * not be answered it anyway.
   */
  async through(
    key: string,
    store: Store,
    read: (store: Store) => Promise<unknown>,
    at: Snapshot,
  ): Promise<unknown> {
    const reads = new Reads();
    const running = read(recording(store, reads));
    // What is kept, and what waiters take (see `shared`); nothing when the read fails.
    const made = running.then(
      (answer) =>
        answer instanceof JsonText && !reads.uncovered && !this.changes.movedSince(at)
          ? this.#keep(key, answer, reads, at)
          : undefined,
      () => undefined,
    );
    // A read of a waiter the running one did not serve is not waited for by others: they wait for the first.
    if (!this.#reading.has(key)) {
      this.#reading.set(key, made);
      void made.then(() => this.#reading.get(key) === made && this.#reading.delete(key));
    }
    await made;
    return running;
  }

  #current(kept: Kept, now: Snapshot): boolean {
    if (kept.credentials !== undefined && kept.credentials !== now.credentials) return false;
    for (const [kind, count] of kept.families) if (now.family(kind) !== count) return false;
    return true;
  }

  /** Keeps `answer` under `key` with the counts `at`, and answers what it kept (or would have, when too big). */
  #keep(key: string, answer: JsonText, reads: Reads, at: Snapshot): Kept {
    const bytes = answer.body.length + key.length;
    const made: Kept = {
      answer,
      bytes,
      families: [...reads.families].map((kind) => [kind, at.family(kind)] as const),
      credentials: reads.credentials ? at.credentials : undefined,
    };
    // One answer may take a sixteenth of the room at most (an export of thousands is not kept).
    if (bytes > this.maxBytes / 16) return made;
    const old = this.#entries.get(key);
    if (old) this.#drop(key, old);
    for (const [oldest, kept] of this.#entries) {
      if (this.#bytes + bytes <= this.maxBytes) break;
      this.#drop(oldest, kept);
    }
    this.#entries.set(key, made);
    this.#bytes += bytes;
    return made;
  }

  #drop(key: string, kept: Kept): void {
    this.#entries.delete(key);
    this.#bytes -= kept.bytes;
  }
}
