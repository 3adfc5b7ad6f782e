// The client's side of a deprecation: an answer carrying `Deprecation` (RFC 9745) tells the caller, once per
// operation and client, through a hook the user can replace (default: console.warn).

/** What an answer said about the deprecation of the operation it answers. */
export interface DeprecationNotice {
  /** `GET /tags.list`: the operation as called. */
  operation: string;
  /** The `Deprecation` header as sent (`@1700000000`). */
  deprecation: string;
  /** When the deprecation takes (or took) effect, when the header is a date. */
  deprecatedAt?: Date;
  /** The `Sunset` header (RFC 8594), when sent: after it the operation may answer no more. */
  sunset?: string;
  sunsetAt?: Date;
}

export type DeprecationHook = (notice: DeprecationNotice) => void;

/** The default hook: one console warning. */
export const warnDeprecated: DeprecationHook = (notice) => {
  const sunset = notice.sunsetAt
    ? `; it may stop answering after ${notice.sunsetAt.toISOString().slice(0, 10)}`
    : "";
  console.warn(
    `@workapi/client: ${notice.operation} is deprecated${sunset}. See the API reference for what replaces it.`,
  );
};

/** RFC 9745's value is a Structured Field Date: `@` and seconds since the Unix epoch. */
function dateOf(value: string): Date | undefined {
  const match = /^@(-?\d{1,15})$/.exec(value.trim());
  return match ? new Date(Number(match[1]) * 1000) : undefined;
}

/**
 * A watcher that calls `hook` the first time an operation answers with `Deprecation`, and never again for it
 * (`false`: never).
 */
export function deprecationWatcher(hook: DeprecationHook | false = warnDeprecated) {
  const told = new Set<string>();
  return (operation: string, response: Response): void => {
    if (hook === false || told.has(operation)) return;
    const deprecation = response.headers.get("deprecation");
    if (deprecation === null) return;
    told.add(operation);
    const sunset = response.headers.get("sunset") ?? undefined;
    const sunsetAt = sunset === undefined ? undefined : new Date(sunset);
    const deprecatedAt = dateOf(deprecation);
    hook({
      operation,
      deprecation,
      ...(deprecatedAt ? { deprecatedAt } : {}),
      ...(sunset === undefined ? {} : { sunset }),
      ...(sunsetAt && !Number.isNaN(sunsetAt.getTime()) ? { sunsetAt } : {}),
    });
  };
}
