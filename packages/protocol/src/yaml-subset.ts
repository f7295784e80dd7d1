// The YAML subset that SKILL.md frontmatter uses, parsed into JSON: block mappings and sequences (also
// `- key: value` items), plain, single- and double-quoted scalars (YAML 1.2 core schema: null, booleans,
// numbers), `|` and `>` block scalars with chomping, one-line flow `[…]` and `{…}`, comments, and plain
// scalars continued on more-indented lines. Anchors, aliases, tags, multi-line quoted scalars, complex keys
// and document markers inside the block are refused with the line number, never guessed at.

interface Line {
  /** 1-based, counted from the first line of the YAML block. */
  no: number;
  indent: number;
  /** Without indentation and trailing whitespace. */
  text: string;
  raw: string;
  /** Empty or a comment: no structure. */
  blank: boolean;
}

/**
 * Parses a YAML block of the subset described above: its root node (a mapping, a sequence or a scalar), or
 * `null` for a block with nothing in it.
 * @throws YamlSubsetError naming the line, for anything outside the subset.
 */
export function parseYamlBlock(source: string): unknown {
  const lines: Line[] = source.split(/\r?\n/).map((raw, i) => {
    const body = raw.trimStart();
    const lead = raw.slice(0, raw.length - body.length);
    const text = body.trimEnd();
    if (lead.includes("\t") && text !== "") fail(i + 1, "tabs cannot indent YAML");
    return { no: i + 1, indent: lead.length, text, raw, blank: text === "" || text.startsWith("#") };
  });
  const parser = new BlockParser(lines);
  const root = parser.node(0);
  parser.expectEnd();
  return root;
}

/** YAML outside the subset: the 1-based line of the block and the reason. */
export class YamlSubsetError extends Error {
  override readonly name = "YamlSubsetError";
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

function fail(no: number, why: string): never {
  throw new YamlSubsetError(no, why);
}

const isSequenceItem = (text: string): boolean => text === "-" || text.startsWith("- ");

class BlockParser {
  private pos = 0;

  constructor(private readonly lines: Line[]) {}

  private skipBlank(): Line | undefined {
    while (this.pos < this.lines.length && this.lines[this.pos]!.blank) this.pos++;
    return this.lines[this.pos];
  }

  expectEnd(): void {
    const line = this.skipBlank();
    if (line !== undefined) fail(line.no, "unexpected indentation");
  }

  /** A block node whose first line is indented at least `minIndent`; null when there is none. */
  node(minIndent: number): unknown {
    const line = this.skipBlank();
    if (line === undefined || line.indent < minIndent) return null;
    if (isSequenceItem(line.text)) return this.sequence(line.indent);
    if (splitKey(line.text, line.no) !== undefined) return this.mapping(line.indent);
    fail(line.no, "expected `key: value` or `- item`");
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      const line = this.skipBlank();
      if (line === undefined || line.indent < indent) break;
      if (line.indent > indent) fail(line.no, "unexpected indentation");
      const pair = splitKey(line.text, line.no);
      if (pair === undefined) {
        if (isSequenceItem(line.text)) break;
        fail(line.no, "expected `key: value`");
      }
      if (Object.hasOwn(out, pair.key)) fail(line.no, `the key ${JSON.stringify(pair.key)} appears twice`);
      this.pos++;
      out[pair.key] = this.value(pair.rest, indent, line.no, true);
    }
    return out;
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      const line = this.skipBlank();
      if (line === undefined || line.indent < indent) break;
      if (line.indent > indent) fail(line.no, "unexpected indentation");
      if (!isSequenceItem(line.text)) break;
      const rest = line.text.slice(1).trimStart();
      if (rest !== "" && !rest.startsWith("#") && splitKey(rest, line.no) !== undefined) {
        // `- key: value`: a mapping whose keys line up with the first one.
        const column = line.indent + (line.text.length - rest.length);
        this.lines[this.pos] = { no: line.no, indent: column, text: rest, raw: line.raw, blank: false };
        out.push(this.mapping(column));
        continue;
      }
      this.pos++;
      out.push(this.value(rest, indent, line.no, false));
    }
    return out;
  }

  /** The value after `key:` or `- `, given the indentation of that line. */
  private value(rest: string, indent: number, no: number, inMapping: boolean): unknown {
    const text = rest.startsWith("#") ? "" : rest;
    if (text === "") {
      const next = this.skipBlank();
      if (next === undefined) return null;
      if (next.indent > indent) return this.node(next.indent);
      // A mapping's sequence value may sit at the key's own indentation.
      if (inMapping && next.indent === indent && isSequenceItem(next.text)) return this.sequence(indent);
      return null;
    }
    const head = text[0]!;
    if (head === "|" || head === ">") return this.blockScalar(text, indent, no);
    if (head === '"' || head === "'") {
      const { value, end } = readQuoted(text, 0, no);
      const after = text.slice(end).trim();
      if (after !== "" && !after.startsWith("#")) fail(no, "unexpected text after a quoted value");
      return value;
    }
    if (head === "[" || head === "{") {
      const flow = new FlowParser(stripComment(text), no);
      return flow.whole();
    }
    if (head === "&" || head === "*" || head === "!") fail(no, "anchors, aliases and tags are not supported");
    if (head === "@" || head === "`") fail(no, `a plain value cannot start with ${head}`);
    let plain = stripComment(text);
    // A plain scalar continues on following lines indented more than its key.
    for (;;) {
      const next = this.lines[this.pos];
      if (next === undefined || next.text === "" || next.indent <= indent) break;
      if (next.text.startsWith("#")) break;
      // `key: value` more indented than a plain value is a nested mapping YAML does not allow here.
      if (/:(?:[ \t]|$)/.test(next.text)) fail(next.no, "unexpected indentation");
      plain += ` ${stripComment(next.text)}`;
      this.pos++;
    }
    return resolvePlain(plain);
  }

  private blockScalar(header: string, indent: number, no: number): string {
    const m = /^([|>])([+-]?)[ \t]*(?:#.*)?$/.exec(header);
    if (m === null) fail(no, "block scalar indentation indicators are not supported");
    const [, style, chomp] = m;
    const body: string[] = [];
    let contentIndent = -1;
    while (this.pos < this.lines.length) {
      const line = this.lines[this.pos]!;
      const empty = line.raw.trim() === "";
      if (!empty && line.indent <= indent) break;
      if (!empty && contentIndent < 0) contentIndent = line.indent;
      if (!empty && line.indent < contentIndent)
        fail(line.no, "a block scalar line is indented less than its first");
      body.push(empty ? "" : line.raw.slice(contentIndent));
      this.pos++;
    }
    let end = body.length;
    while (end > 0 && body[end - 1] === "") end--;
    const kept = body.slice(0, end);
    let text: string;
    if (style === "|") text = kept.join("\n");
    else {
      // Folding: lines join with a space; an empty line is a newline; more-indented lines stay as they are.
      text = "";
      for (let i = 0; i < kept.length; i++) {
        const line = kept[i]!;
        const prev = kept[i - 1];
        if (line === "") text += "\n";
        else if (prev === undefined || prev === "") text += line;
        else if (line.startsWith(" ") || prev.startsWith(" ")) text += `\n${line}`;
        else text += ` ${line}`;
      }
    }
    if (kept.length === 0) return "";
    if (chomp === "-") return text;
    if (chomp === "+") return text + "\n".repeat(body.length - end + 1);
    return `${text}\n`;
  }
}

/** `key: rest` when the line is a mapping entry; undefined when it is not. */
function splitKey(text: string, no: number): { key: string; rest: string } | undefined {
  if (text.startsWith("? ")) fail(no, "complex keys are not supported");
  if (text.startsWith('"') || text.startsWith("'")) {
    const { value, end } = readQuoted(text, 0, no);
    const after = text.slice(end);
    if (!/^[ \t]*:(?:[ \t]|$)/.test(after)) return undefined;
    return { key: value, rest: after.slice(after.indexOf(":") + 1).trim() };
  }
  if (isSequenceItem(text) || text.startsWith("#")) return undefined;
  const m = /:(?:[ \t]|$)/.exec(text);
  if (m === null) return undefined;
  const key = text.slice(0, m.index).trimEnd();
  if (key === "" || key.includes(" #")) return undefined;
  if (/^[[{&*!|>%@`]/.test(key)) fail(no, `the key ${JSON.stringify(key)} is not supported`);
  return { key, rest: text.slice(m.index + 1).trim() };
}

function stripComment(text: string): string {
  const at = text.search(/[ \t]#/);
  return (at < 0 ? text : text.slice(0, at)).trimEnd();
}

const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};

/** A quoted scalar starting at `start`; `end` is the index after its closing quote. */
function readQuoted(text: string, start: number, no: number): { value: string; end: number } {
  const quote = text[start];
  let out = "";
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") {
        if (text[i + 1] === "'") {
          out += "'";
          i += 2;
          continue;
        }
        return { value: out, end: i + 1 };
      }
      out += c;
      i++;
      continue;
    }
    if (c === '"') return { value: out, end: i + 1 };
    if (c !== "\\") {
      out += c;
      i++;
      continue;
    }
    const e = text[i + 1];
    if (e === undefined) break;
    const width = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
    if (width > 0) {
      const hex = text.slice(i + 2, i + 2 + width);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) fail(no, `bad escape \\${e}${hex}`);
      out += String.fromCodePoint(Number.parseInt(hex, 16));
      i += 2 + width;
      continue;
    }
    const escaped = ESCAPES[e];
    if (escaped === undefined) fail(no, `unknown escape \\${e}`);
    out += escaped;
    i += 2;
  }
  fail(no, "a quoted value must end on its line");
}

/** A plain scalar by the YAML 1.2 core schema: null, booleans, integers and floats; otherwise the string. */
function resolvePlain(text: string): unknown {
  if (/^(?:~|null|Null|NULL)$/.test(text) || text === "") return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number.parseInt(text, 10);
  if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  return text;
}

/** A one-line flow collection: `[a, "b", {c: 1}]`. */
class FlowParser {
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly no: number,
  ) {}

  whole(): unknown {
    const value = this.item();
    this.space();
    if (this.i !== this.text.length) fail(this.no, "unexpected text after a flow collection");
    return value;
  }

  private space(): void {
    while (this.text[this.i] === " " || this.text[this.i] === "\t") this.i++;
  }

  private item(): unknown {
    this.space();
    const c = this.text[this.i];
    if (c === "[") {
      this.i++;
      const out: unknown[] = [];
      this.space();
      if (this.text[this.i] === "]") {
        this.i++;
        return out;
      }
      for (;;) {
        out.push(this.item());
        this.space();
        const sep = this.text[this.i++];
        if (sep === "]") return out;
        if (sep !== ",") fail(this.no, "expected , or ] in a flow sequence");
        this.space();
        if (this.text[this.i] === "]") {
          this.i++;
          return out;
        }
      }
    }
    if (c === "{") {
      this.i++;
      const out: Record<string, unknown> = {};
      this.space();
      if (this.text[this.i] === "}") {
        this.i++;
        return out;
      }
      for (;;) {
        const key = this.item();
        this.space();
        if (this.text[this.i++] !== ":") fail(this.no, "expected : in a flow mapping");
        out[String(key)] = this.item();
        this.space();
        const sep = this.text[this.i++];
        if (sep === "}") return out;
        if (sep !== ",") fail(this.no, "expected , or } in a flow mapping");
      }
    }
    if (c === '"' || c === "'") {
      const { value, end } = readQuoted(this.text, this.i, this.no);
      this.i = end;
      return value;
    }
    const start = this.i;
    while (this.i < this.text.length && !",[]{}".includes(this.text[this.i]!)) {
      // `a: b` inside a flow mapping: the colon ends the key.
      if (this.text[this.i] === ":" && /[ \t]/.test(this.text[this.i + 1] ?? " ")) break;
      this.i++;
    }
    return resolvePlain(this.text.slice(start, this.i).trim());
  }
}
