// Server-supplied text goes to a terminal: a hostile server must not be able to set the window title,
// clear the screen, write the clipboard (OSC 52) or rewrite what was printed before. Every such sequence
// starts with a control character (ESC, or an 8-bit C1 such as U+009B CSI and U+009D OSC), and `\r` and
// backspace overwrite the line, so escaping those characters takes their power away.

// Every C0 control but tab, newline and the `\r` of a `\r\n`; DEL; the C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/g;
const C1_AND_DEL = /[\x7f-\x9f]/g;

/**
 * Text a server sent, made safe to print on a terminal: each control character (C0 but `\n` and `\t`,
 * `\r` and ESC included; DEL; C1) is shown as a visible escape (`\x1b`, `\x9b`) instead of being acted
 * on, so `ESC ] 52 ; …` prints as the text `\x1b]52;…`. A `\r` that ends a line (`\r\n`) is kept: only
 * a lone one returns to the start of the line. Everything else is left as it is.
 */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (char) => `\\x${hex(char, 2)}`);
}

/**
 * JSON text (as `JSON.stringify` wrote it) for the terminal: it escapes the C0 controls but leaves DEL
 * and the C1 controls (U+007F to U+009F) raw; they are written as `\u007f`…`\u009f`, which JSON
 * readers decode to the same string (they can only occur inside strings).
 */
export function terminalSafeJson(json: string): string {
  return json.replace(C1_AND_DEL, (char) => `\\u${hex(char, 4)}`);
}

function hex(char: string, width: number): string {
  return char.charCodeAt(0).toString(16).padStart(width, "0");
}
