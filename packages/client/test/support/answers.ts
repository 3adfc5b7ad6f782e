// Helpers of the pagination tests: the entries of an `.all()` answer, the bodies of `.pages()` answers.

/** The entries `.all()` answered; throws on an error answer. */
export async function entries<T>(answer: Promise<{ data?: T[]; error?: unknown }>): Promise<T[]> {
  const { data, error } = await answer;
  if (!data) throw new Error(`an error answer: ${JSON.stringify(error)}`);
  return data;
}

/** The bodies of the page answers, in order; throws on an error answer. */
export async function pagesOf<T>(pages: AsyncIterable<{ data?: T; error?: unknown }>): Promise<T[]> {
  const out: T[] = [];
  for await (const { data, error } of pages) {
    if (!data) throw new Error(`an error answer: ${JSON.stringify(error)}`);
    out.push(data);
  }
  return out;
}
