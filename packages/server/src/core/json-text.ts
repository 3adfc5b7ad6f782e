// An answer a handler has already serialized: JSON the route sends as it is. Stored documents (one record, a
// page, an export of thousands) are joined from their stored JSON (text, or bytes for an export), instead of
// each being parsed and printed again. In development the JSON is parsed and checked against the contract like
// any other answer.

/** The JSON of a `T` (the type says what it holds; development's check verifies it). */
export class JsonText<T = unknown> {
  declare readonly holds?: T;
  /** The JSON as text, or as its UTF-8 bytes when joined from stored bytes (see JsonStream). */
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

const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]}");

/**
 * `{"<key>":[<item>,<item>...]}` written as its items are read: each chunk of items (each the UTF-8 JSON of
 * one entry of the array, as stored) becomes one piece of the answer, sent before the next chunk is read. An
 * answer of thousands (an export) is neither decoded into strings nor held whole. Where answers are checked
 * against the contract, the route joins it into a JsonText first (./executor.ts).
 */
export class JsonStream<T = unknown> {
  declare readonly holds?: T;
  constructor(
    private readonly chunks: AsyncIterable<readonly Uint8Array[]>,
    private readonly key: string,
  ) {}

  static arrayUnder<K extends string, Item>(
    key: K,
    chunks: AsyncIterable<readonly Uint8Array[]>,
  ): JsonStream<{ [P in K]: Item[] }> {
    return new JsonStream(chunks, key);
  }

  /** The answer's bytes, piece by piece: the opening, one piece per chunk of items, the closing. */
  async *pieces(): AsyncGenerator<Buffer> {
    let first = true;
    let open: Buffer | undefined = Buffer.from(`{${JSON.stringify(this.key)}:[`);
    for await (const chunk of this.chunks) {
      if (chunk.length === 0) continue;
      const parts: Uint8Array[] = open ? [open] : [];
      open = undefined;
      for (const item of chunk) {
        if (!first) parts.push(COMMA);
        first = false;
        parts.push(item);
      }
      yield Buffer.concat(parts);
    }
    yield open ? Buffer.concat([open, CLOSE]) : CLOSE;
  }

  /** The whole answer as one JsonText (to check it against the contract). */
  async joined(): Promise<JsonText<T>> {
    const all: Buffer[] = [];
    for await (const piece of this.pieces()) all.push(piece);
    return new JsonText(Buffer.concat(all));
  }
}
