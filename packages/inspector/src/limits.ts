/** How much of one wire message the page is sent (the rest is cut, with its size said). */
export const WIRE_TEXT_LIMIT = 16 * 1024;
/** How many wire entries a connection keeps (oldest dropped first). */
export const WIRE_ENTRIES_LIMIT = 3000;
/** A result larger than this (as JSON) reaches the page cut, with its size said. */
export const RESULT_BYTES_LIMIT = 1024 * 1024;
/** How much of one text part of a cut result is kept. */
export const PART_TEXT_LIMIT = 64 * 1024;
/** How many stderr lines of a spawned server are kept. */
export const STDERR_LINES_LIMIT = 60;

/** `text` cut to `limit` characters, with a note of how much was cut. */
export function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… [cut: ${text.length - limit} more characters of ${text.length}]`;
}
