// JSON Schema `pattern`s run on a linear-time engine (re2js, a pure-JS port of RE2: no native addon, no
// WebAssembly, so it runs wherever this package does). A schema may come from a peer (a server's
// `outputSchema`), and a backtracking engine gives it `^(a+)+$`, which blocks the event loop for seconds
// on a 27-byte string. RE2 matches in time linear in the input, whatever the pattern.
//
// An ECMAScript pattern is rewritten to RE2's syntax with ECMAScript's meaning: `.` and `\s`/`\S` name
// ECMAScript's sets (RE2's `.` matches `\r`, its `\s` is ASCII only). Lookaround and backreferences have
// no linear-time algorithm: such a pattern is refused, and the schema does not compile.

import type { RE2JS } from "re2js";

/** What the engine offers for one pattern: a test, and the source for ajv's cache key. */
export interface BoundedPattern {
  test(text: string): boolean;
  toString(): string;
}

/** Compiles a pattern to a {@link BoundedPattern}. @throws Error saying why the pattern is refused. */
export type PatternEngine = (pattern: string) => BoundedPattern;

let loading: Promise<PatternEngine> | undefined;
let loaded: PatternEngine | undefined;

/** The linear-time engine, imported on first need (re2js is some 150 kB minified, 46 kB gzipped). */
export function loadPatternEngine(): Promise<PatternEngine> {
  loading ??= import("re2js").then(
    (module) => {
      loaded = engineOf(module.RE2JS);
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw new TypeError("the regular expression engine (re2js) could not be loaded", { cause: error });
    },
  );
  return loading;
}

/** The engine when it has loaded, else `undefined`. */
export function loadedPatternEngine(): PatternEngine | undefined {
  return loaded;
}

/** The native engine, for schemas and values the app trusts (`nativePatterns`): backtracking, unbounded. */
export const nativePatternEngine: PatternEngine = (pattern) => new RegExp(pattern, "u");

function engineOf(engine: typeof RE2JS): PatternEngine {
  return (pattern) => {
    const source = toRe2(pattern, engine);
    let compiled: RE2JS;
    try {
      compiled = engine.compile(source);
    } catch (error) {
      const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : "";
      throw new Error(
        `"pattern" ${JSON.stringify(pattern)} is refused by the linear-time engine (${detail})`,
      );
    }
    return { test: (text) => compiled.test(text), toString: () => `/${pattern}/u` };
  };
}

// ECMAScript's WhiteSpace and LineTerminator code points, and their complement, as class contents.
const SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
const NOT_SPACE =
  "\\u0000-\\u0008\\u000e-\\u001f\\u0021-\\u009f\\u00a1-\\u167f\\u1681-\\u1fff\\u200b-\\u2027" +
  "\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\ufefe\\uff00-\\u{10ffff}";
const NOT_LINE_END = "[^\\n\\r\\u2028\\u2029]";

/**
 * Why a (valid, `u`-mode) ECMAScript pattern cannot run in linear time, or `undefined`: lookaround and
 * backreferences. Found without the engine, so that `compile` can refuse at once.
 */
export function patternRefusal(pattern: string): string | undefined {
  const found = scan(pattern).refusal;
  return found && `"pattern" ${JSON.stringify(pattern)} is refused: ${found} cannot run in linear time`;
}

/** `pattern` in RE2's syntax with ECMAScript's meaning. @throws Error when {@link patternRefusal} says so. */
function toRe2(pattern: string, engine: typeof RE2JS): string {
  const { rewritten, refusal } = scan(pattern);
  if (refusal) throw new Error(patternRefusal(pattern));
  return engine.translateRegExp(rewritten);
}

function scan(pattern: string): { rewritten: string; refusal?: string } {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      i++;
      if (/[1-9]/.test(next) || (next === "k" && !inClass))
        return { rewritten: "", refusal: "a backreference" };
      if (next === "s") out += inClass ? SPACE : `[${SPACE}]`;
      else if (next === "S") out += inClass ? NOT_SPACE : `[${NOT_SPACE}]`;
      else out += c + next;
    } else if (inClass) {
      if (c === "]") inClass = false;
      out += c;
    } else if (c === "[") {
      if (pattern.startsWith("[]", i)) {
        out += "[^\\u0000-\\u{10ffff}]"; // ECMAScript's empty class; RE2 would read `[]…]`
        i++;
      } else {
        inClass = true;
        out += c;
      }
    } else if (c === "(" && /^\(\?<?[=!]/.test(pattern.slice(i, i + 4))) {
      return { rewritten: "", refusal: "a lookaround" };
    } else {
      out += c === "." ? NOT_LINE_END : c;
    }
  }
  return { rewritten: out };
}

/**
 * The pattern tests of one schema being compiled by the subset: made at once when the engine has loaded
 * (or is native), else made when it has, which {@link SchemaPatterns.ready} awaits.
 */
export class SchemaPatterns {
  private readonly pending: Array<{ source: string; compiled?: BoundedPattern }> = [];

  constructor(private readonly native: boolean) {}

  /** A {@link PatternTester} for `analyzeSubset`. @throws Error when the pattern is refused. */
  readonly tester = (pattern: string): ((text: string) => boolean) => {
    const engine = this.native ? nativePatternEngine : loadedPatternEngine();
    if (engine) {
      const compiled = engine(pattern);
      return (text) => compiled.test(text);
    }
    const refusal = patternRefusal(pattern);
    if (refusal) throw new Error(refusal);
    const slot: { source: string; compiled?: BoundedPattern } = { source: pattern };
    this.pending.push(slot);
    return (text) => (slot.compiled as BoundedPattern).test(text);
  };

  /**
   * `undefined` when every test is ready, else a Promise that settles once they are. It rejects with a
   * TypeError when the engine fails to load or refuses a pattern (one RE2 finds too large).
   */
  ready(): Promise<void> | undefined {
    if (this.pending.length === 0) return undefined;
    return loadPatternEngine().then((engine) => {
      for (const slot of this.pending) {
        try {
          slot.compiled = engine(slot.source);
        } catch (error) {
          throw new TypeError(`the JSON Schema does not compile (${(error as Error).message})`);
        }
      }
    });
  }
}
