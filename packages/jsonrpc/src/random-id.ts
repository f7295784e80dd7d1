/**
 * An unguessable id: 128 bits from the platform's CSPRNG (`crypto.getRandomValues`), as 32 lower-case hex
 * digits, which fit any header, URL or key. For session, event and task ids; runtime-neutral.
 */
export function randomId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let out = "";
  for (const b of bytes) out += (b < 16 ? "0" : "") + b.toString(16);
  return out;
}
