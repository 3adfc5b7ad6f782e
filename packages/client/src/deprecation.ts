// The client's side of a deprecation: an answer carrying `Deprecation` (RFC 9745) tells the caller, once per
// operation and client, through a hook the user can replace (default: console.warn). Kept small: the client's
// size budget (scripts/check-size.mjs) counts every byte; the headers are handed over as sent.

/** What an answer said about the deprecation of the operation it answers. */
export interface DeprecationNotice {
  /** `GET /tags.list`: the operation as called. */
  operation: string;
  /** The `Deprecation` header as sent: `@` and the Unix seconds it takes (or took) effect (`@1700000000`). */
  deprecation: string;
  /** The `Sunset` header (RFC 8594, an HTTP-date), when sent: after it the operation may answer no more. */
  sunset?: string | undefined;
  /**
   * The `Link` header as sent, when there is one: RFC 9745's `<url>; rel="deprecation"` names where the
   * deprecation is documented (the reference server links the operation's part of its `/docs` page, relative to
   * the call's URL).
   */
  link?: string | undefined;
}

export type DeprecationHook = (notice: DeprecationNotice) => void;

/**
 * A watcher that calls `hook` the first time an operation answers with `Deprecation` (`false`: never); the
 * default warns on the console with the notice.
 */
export function deprecationWatcher(hook: DeprecationHook | false = (n) => console.warn("Deprecated:", n)) {
  const told = new Set<string>();
  return (operation: string, { headers }: Response): void => {
    const deprecation = headers.get("deprecation");
    if (hook && deprecation && !told.has(operation)) {
      told.add(operation);
      hook({
        operation,
        deprecation,
        sunset: headers.get("sunset") ?? undefined,
        link: headers.get("link") ?? undefined,
      });
    }
  };
}
