// An answer a handler has already serialized: JSON the route sends as it is. Stored documents (one record, a
// page) are joined from their stored JSON text, and an export of thousands streamed from their stored bytes,
// instead of each being parsed and printed again. In development the JSON is parsed and checked against the
// contract like any other answer.

/** The JSON of a `T` (the type says what it holds; development's check verifies it). */
export class JsonText<T = unknown> {
  declare readonly holds?: T;
  /** The JSON as text, or as its UTF-8 bytes (a JsonStream gathered whole). */
  constructor(readonly body: string | Buffer) {}

  /** The JSON as text. */
  get text(): string {
    return typeof this.body === "string" ? this.body : this.body.toString("utf8");
  }

  /** `{"<key>":<item>}` from the JSON of the item. */
  static under<K extends string, Item>(key: K, item: string): JsonText<{ [P in K]: Item }> {
    return new JsonText(`{${JSON.stringify(key)}:${item}}`);
  }

  /** A page as `{"<key>":[<item>...],"next_cursor":...,"prev_cursor":...}` (cursors left out when absent). */
  static page<K extends string, Item>(
    key: K,
    page: { items: readonly string[]; next_cursor?: string; prev_cursor?: string },
  ): JsonText<{ [P in K]: Item[] } & { next_cursor?: string; prev_cursor?: string }> {
    let text = `{${JSON.stringify(key)}:[${page.items.join(",")}]`;
    if (page.next_cursor !== undefined) text += `,"next_cursor":${JSON.stringify(page.next_cursor)}`;
    if (page.prev_cursor !== undefined) text += `,"prev_cursor":${JSON.stringify(page.prev_cursor)}`;
    return new JsonText(`${text}}`);
  }
}

/**
 * JSON sent as it is read: `{"<key>":[<item>,<item>...]}` from batches of items that are each the UTF-8 JSON
 * of one entry. An answer of thousands (an export) goes from the database to the socket in bytes, never
 * decoded into strings and encoded again, and each batch goes out while the next is read.
 */
export class JsonStream<T = unknown> {
  declare readonly holds?: T;
  private constructor(
    private readonly key: string,
    private readonly first: readonly Uint8Array[],
    private readonly rest: AsyncIterator<readonly Uint8Array[]>,
  ) {}

  /**
   * The answer of `batches`, once its first batch is read: a read that fails at its start (the query, the
   * connection) fails the request with a typed error, before anything is sent.
   */
  static async arrayUnder<K extends string, Item>(
    key: K,
    batches: AsyncIterable<readonly Uint8Array[]>,
  ): Promise<JsonStream<{ [P in K]: Item[] }>> {
    const rest = batches[Symbol.asyncIterator]();
    const first = await rest.next();
    return new JsonStream(key, first.done ? [] : first.value, first.done ? emptyIterator() : rest);
  }

  /** The answer's bytes, a batch at a time (the read ends with the last; else see close). */
  async *chunks(): AsyncGenerator<Buffer> {
    let parts: Uint8Array[] = [Buffer.from(`{${JSON.stringify(this.key)}:[`)];
    let items = 0;
    for (let batch: readonly Uint8Array[] | undefined = this.first; batch; ) {
      for (const item of batch) {
        if (items++ > 0) parts.push(COMMA);
        parts.push(item);
      }
      yield Buffer.concat(parts);
      parts = [];
      const next = await this.rest.next();
      batch = next.done ? undefined : next.value;
    }
    yield CLOSE;
  }

  /**
   * Ends the read, whether the answer was sent whole, cut short or never begun: the route calls it when the
   * response closes, so a client that leaves does not keep the read (and its connection) open.
   */
  async close(): Promise<void> {
    await this.rest.return?.();
  }

  /** The whole answer, for development's check against the contract. */
  async whole(): Promise<JsonText<T>> {
    const parts: Buffer[] = [];
    for await (const chunk of this.chunks()) parts.push(chunk);
    return new JsonText(Buffer.concat(parts));
  }
}

function emptyIterator<T>(): AsyncIterator<T> {
  return { next: async () => ({ done: true, value: undefined }) };
}

const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]}");
