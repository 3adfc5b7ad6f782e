// Text both databases store alike. PostgreSQL refuses a NUL character and a lone UTF-16 surrogate, SQLite
// keeps them: every string that reaches the store (an input's strings and keys, a cursor's sort values) is
// checked with this first, so the same typed 400 is answered on both.

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly the character to find
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** False when `text` holds a NUL character or a lone UTF-16 surrogate. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}
