// An answer a handler has already serialized: JSON the route sends as it is. Stored documents (one record, a
// page, an export of thousands) are joined from their stored JSON (text, or bytes for an export), instead of
// each being parsed and printed again. In development the JSON is parsed and checked against the contract like
// any other answer.

/** The JSON of a `T` (the type says what it holds; development's check verifies it). */
export class JsonText<T = unknown> {
  declare readonly holds?: T;
  /** The JSON as text, or as its UTF-8 bytes when joined from stored bytes (an export, joined by the database). */
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
 * An answer too large to hold at once (an export of thousands): the JSON of a `T` as chunks of its UTF-8
 * bytes, sent as they come (the store reads them while they are sent). Not kept among the answers of reads.
 */
export class JsonChunks<T = unknown> {
  declare readonly holds?: T;
  constructor(readonly chunks: Iterable<Buffer> | AsyncIterable<Buffer>) {}

  /** All of it as one JsonText: development's check of the answer needs it whole. */
  async whole(): Promise<JsonText<T>> {
    const parts: Buffer[] = [];
    for await (const chunk of this.chunks) parts.push(chunk);
    return new JsonText<T>(Buffer.concat(parts));
  }
}
