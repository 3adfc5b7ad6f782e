// An answer a handler has already serialized: JSON the route sends as it is. Stored documents (one record, a
// page, an export of thousands) are joined from their stored JSON, instead of each being decoded, parsed,
// printed and encoded again. In development the JSON is parsed and checked against the contract like any
// other answer.

type Piece = string | Buffer;

/** The JSON of a `T`, as text or UTF-8 bytes (the type says what it holds; development's check verifies it). */
export class JsonText<T = unknown> {
  declare readonly holds?: T;
  constructor(readonly json: Piece) {}

  /** The JSON as text. */
  get text(): string {
    return typeof this.json === "string" ? this.json : this.json.toString("utf8");
  }

  /** `{"<key>":<item>}` from the JSON of the item. */
  static under<K extends string, Item>(key: K, item: Piece): JsonText<{ [P in K]: Item }> {
    return new JsonText(joined([`{${JSON.stringify(key)}:`, item, "}"]));
  }

  /** `{"<key>":[<item>,<item>...]}` from items that are each the JSON of one entry of that array. */
  static arrayUnder<K extends string, Item>(
    key: K,
    items: ReadonlyArray<Piece>,
  ): JsonText<{ [P in K]: Item[] }> {
    return JsonText.page(key, { items });
  }

  /** A page as `{"<key>":[<item>...],"next_cursor":...,"prev_cursor":...}` (cursors left out when absent). */
  static page<K extends string, Item>(
    key: K,
    page: { items: ReadonlyArray<Piece>; next_cursor?: string; prev_cursor?: string },
  ): JsonText<{ [P in K]: Item[] } & { next_cursor?: string; prev_cursor?: string }> {
    const pieces: Piece[] = [`{${JSON.stringify(key)}:[`];
    page.items.forEach((item, index) => {
      if (index > 0) pieces.push(",");
      pieces.push(item);
    });
    let tail = "]";
    if (page.next_cursor !== undefined) tail += `,"next_cursor":${JSON.stringify(page.next_cursor)}`;
    if (page.prev_cursor !== undefined) tail += `,"prev_cursor":${JSON.stringify(page.prev_cursor)}`;
    pieces.push(`${tail}}`);
    return new JsonText(joined(pieces));
  }
}

/** The pieces as one string, or as one buffer when any piece is bytes (bytes are not decoded to be joined). */
function joined(pieces: Piece[]): Piece {
  if (!pieces.some(Buffer.isBuffer)) return pieces.join("");
  return Buffer.concat(pieces.map((piece) => (typeof piece === "string" ? Buffer.from(piece) : piece)));
}
