// An answer a handler has already serialized: JSON text the route sends as it is. An export of thousands of
// stored documents is joined from their stored text, instead of each being parsed and printed again. In
// development the text is parsed and checked against the contract like any other answer.

/** JSON text of a `T` (the type says what the text holds; nothing checks it before development's check). */
export class JsonText<T = unknown> {
  declare readonly holds?: T;
  constructor(readonly text: string) {}

  /** `{"<key>":[<item>,<item>...]}` from items that are each the JSON text of one entry of that array. */
  static arrayUnder<K extends string, Item>(
    key: K,
    items: readonly string[],
  ): JsonText<{ [P in K]: Item[] }> {
    return new JsonText(`{${JSON.stringify(key)}:[${items.join(",")}]}`);
  }
}
