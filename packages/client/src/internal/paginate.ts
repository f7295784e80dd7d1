import { InvalidResultError } from "../errors.js";

/**
 * Every page of a paginated list method, in order: `fetchPage` gets each cursor (none for the first page)
 * and resolves with that page; `onPage` takes each one. Ends at the page without a `nextCursor` (any string
 * is a cursor, the empty one too).
 * @throws InvalidResultError when the server repeats a cursor (a loop), or what `fetchPage`/`onPage` threw.
 * @see SPEC.md pagination
 */
export async function paginate(
  method: string,
  fetchPage: (cursor: string | undefined) => Promise<Record<string, unknown>>,
  onPage: (page: Record<string, unknown>) => void,
): Promise<void> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    onPage(page);
    cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    if (cursor !== undefined) {
      if (seen.has(cursor)) throw new InvalidResultError(method, `${method} repeated the cursor ${cursor}`);
      seen.add(cursor);
    }
  } while (cursor !== undefined);
}
