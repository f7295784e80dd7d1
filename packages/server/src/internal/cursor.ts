import { decodeUtf8, fromBase64Url, toBase64Url, utf8 } from "./encoding.js";

// Cursors are opaque to clients: base64url of "<kind>:<offset>". A cursor from another list, or one
// that is not ours at all, is an invalid cursor (-32602).

/** The cursor of the page that starts at `offset` of the list `kind`. */
export function encodeCursor(kind: string, offset: number): string {
  return toBase64Url(utf8(`${kind}:${offset}`));
}

/** The offset a cursor names, or `undefined` when it is not a valid cursor of `kind`. */
export function decodeCursor(kind: string, cursor: string): number | undefined {
  const bytes = fromBase64Url(cursor);
  const text = bytes && decodeUtf8(bytes);
  if (text === undefined || !text.startsWith(`${kind}:`)) return undefined;
  const digits = text.slice(kind.length + 1);
  if (!/^\d{1,9}$/.test(digits)) return undefined;
  return Number(digits);
}
