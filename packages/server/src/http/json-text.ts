// An answer a handler has already serialized: JSON the route sends as it is. An export of thousands of stored
// documents is joined from their stored bytes, instead of each being decoded, parsed, printed and encoded
// again. In development the JSON is parsed and checked against the contract like any other answer.

/** The JSON of a `T`, as text or UTF-8 bytes (the type says what it holds; development's check verifies it). */
export class JsonText<T = unknown> {
  declare readonly holds?: T;
  constructor(readonly json: string | Buffer) {}

  /** The JSON as text. */
  get text(): string {
    return typeof this.json === "string" ? this.json : this.json.toString("utf8");
  }

  /** `{"<key>":[<item>,<item>...]}` from items that are each the JSON of one entry of that array. */
  static arrayUnder<K extends string, Item>(
    key: K,
    items: ReadonlyArray<string | Buffer>,
  ): JsonText<{ [P in K]: Item[] }> {
    const head = `{${JSON.stringify(key)}:[`;
    if (!items.every(Buffer.isBuffer)) return new JsonText(`${head}${items.join(",")}]}`);
    const parts: Buffer[] = [Buffer.from(head)];
    const comma = Buffer.from(",");
    items.forEach((item, index) => {
      if (index > 0) parts.push(comma);
      parts.push(item as Buffer);
    });
    parts.push(Buffer.from("]}"));
    return new JsonText(Buffer.concat(parts));
  }
}
