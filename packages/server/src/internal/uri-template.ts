// A matcher for RFC 6570 URI templates, enough to route `resources/read` to a template: simple `{x}`,
// reserved `{+x}`, fragment `{#x}`, label `{.x}`, path `{/x}` and query `{?x,y}` / `{&x}` expressions.
//
// Only reserved `{+x}` and fragment `{#x}` expansion may carry a `/` (RFC 6570 percent-encodes it
// everywhere else). So a URI whose decoded value for any other expression holds a `/` or `\\` (as
// `..%2F..%2Fetc%2Fpasswd` does), a NUL, or is `.` or `..`, does not match: a handler given `{name}` is
// never handed a path to climb out with.

/** A compiled template: `match(uri)` gives the variables, or `undefined` when the URI does not fit. */
export interface UriTemplateMatcher {
  readonly template: string;
  readonly variableNames: readonly string[];
  match(uri: string): Record<string, string> | undefined;
}

const EXPRESSION = /\{([+#./;?&]?)([^}]+)\}/g;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether a decoded value may be the value of a non-reserved expression: one path segment, no dot segment. */
function isPlainValue(value: string): boolean {
  return value !== "." && value !== ".." && !/[/\\\0]/.test(value);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Compiles `template`. Throws a TypeError for an unbalanced brace, so a bad template fails at registration.
 */
export function compileUriTemplate(template: string): UriTemplateMatcher {
  if (/\{[^}]*\{|\}[^{]*\}/.test(template.replace(EXPRESSION, ""))) {
    throw new TypeError(`Invalid URI template: ${template}`);
  }
  const names: string[] = [];
  const groups: Array<{ names: string[]; query: boolean; reserved: boolean }> = [];
  let pattern = "^";
  let last = 0;
  for (const m of template.matchAll(EXPRESSION)) {
    const literal = template.slice(last, m.index);
    if (literal.includes("{") || literal.includes("}"))
      throw new TypeError(`Invalid URI template: ${template}`);
    pattern += escapeRegex(literal);
    last = m.index + m[0].length;
    const operator = m[1] ?? "";
    const vars = (m[2] ?? "").split(",").map((v) => v.replace(/[*]|:\d+$/g, "").trim());
    names.push(...vars);
    if (operator === "?" || operator === "&") {
      // Query expressions: everything after is parsed as a query string.
      groups.push({ names: vars, query: true, reserved: false });
      pattern += operator === "?" ? "(?:\\?(.*))?" : "(?:&(.*))?";
      continue;
    }
    const charClass = operator === "+" || operator === "#" ? ".+?" : "[^/?#&]+?";
    const lead = operator === "" || operator === "+" ? "" : escapeRegex(operator === ";" ? ";" : operator);
    const separator = operator === "" || operator === "+" || operator === "#" ? "," : lead;
    // Each variable of a multi-variable expression is captured on its own.
    const parts = vars.map(() => `(${charClass})`);
    pattern += `${lead}${parts.join(escapeRegex(separator))}`;
    groups.push({ names: vars, query: false, reserved: operator === "+" || operator === "#" });
  }
  const tail = template.slice(last);
  if (tail.includes("{") || tail.includes("}")) throw new TypeError(`Invalid URI template: ${template}`);
  pattern += `${escapeRegex(tail)}$`;
  const regex = new RegExp(pattern);
  return {
    template,
    variableNames: names,
    match(uri) {
      const m = regex.exec(uri);
      if (!m) return undefined;
      const out: Record<string, string> = {};
      let index = 1;
      for (const group of groups) {
        if (group.query) {
          const text = m[index++];
          if (text === undefined) continue;
          for (const pair of text.split("&")) {
            const eq = pair.indexOf("=");
            const key = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
            if (!group.names.includes(key)) continue;
            const value = safeDecode(eq < 0 ? "" : pair.slice(eq + 1));
            if (!isPlainValue(value)) return undefined;
            out[key] = value;
          }
          continue;
        }
        for (const name of group.names) {
          const raw = m[index++];
          if (raw === undefined) continue;
          const value = safeDecode(raw);
          if (!group.reserved && !isPlainValue(value)) return undefined;
          out[name] = value;
        }
      }
      return out;
    },
  };
}
