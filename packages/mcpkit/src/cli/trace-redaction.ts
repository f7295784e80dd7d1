// `--trace` shows each JSON-RPC message; the values a user passes to a tool or a prompt (paths, queries,
// tokens pasted into an argument) stay out of it unless `--trace-arguments` asks for them.

/** What a redacted value reads as in the trace. */
export const REDACTED = '"***"';

const ARGUMENTS = '"arguments":{';
const CUT = "…";

/**
 * A wire trace line with the values of every `"arguments": { … }` object replaced by `"***"`, keys and
 * nesting kept (`{"path":"***","options":{"depth":"***"}}`), so a reader still sees which arguments
 * were sent. Works on a body cut short by the trace (`…` at the end). Other lines come back unchanged.
 */
export function redactTraceArguments(line: string): string {
  if (!line.includes(ARGUMENTS)) return line;
  const cut = line.endsWith(CUT);
  const text = cut ? line.slice(0, -CUT.length) : line;
  let out = "";
  let from = 0;
  for (let at = text.indexOf(ARGUMENTS); at !== -1; at = text.indexOf(ARGUMENTS, from)) {
    const open = at + ARGUMENTS.length - 1;
    out += text.slice(from, open);
    const { redacted, end } = redactObject(text, open);
    out += redacted;
    from = end;
  }
  return out + text.slice(from) + (cut ? CUT : "");
}

/** Redacts the JSON value starting with `{` at `start`: scalars in value position become `"***"`. */
function redactObject(text: string, start: number): { redacted: string; end: number } {
  // One entry per open container: whether the next string in it is a key.
  const stack: Array<{ object: boolean; key: boolean }> = [];
  let out = "";
  let i = start;
  while (i < text.length) {
    const char = text[i]!;
    if (char === "{" || char === "[") {
      stack.push({ object: char === "{", key: char === "{" });
      out += char;
      i++;
    } else if (char === "}" || char === "]") {
      stack.pop();
      out += char;
      i++;
      if (stack.length === 0) return { redacted: out, end: i };
    } else if (char === ",") {
      const top = stack[stack.length - 1];
      if (top?.object) top.key = true;
      out += char;
      i++;
    } else if (char === ":") {
      const top = stack[stack.length - 1];
      if (top) top.key = false;
      out += char;
      i++;
    } else if (char === '"') {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      out += top?.object && top.key ? text.slice(i, end) : REDACTED;
      i = end;
    } else if (/[\s]/.test(char)) {
      out += char;
      i++;
    } else {
      // A number or a literal (true, false, null): up to the next delimiter.
      let end = i;
      while (end < text.length && !/[,\]}\s]/.test(text[end]!)) end++;
      out += REDACTED;
      i = end;
    }
  }
  return { redacted: out, end: i };
}

/** The index after the string starting at `start` (its closing quote), or the text's end when cut. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
