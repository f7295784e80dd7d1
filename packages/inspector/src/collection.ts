import { openConnection } from "./connection.js";
import type { EventHub } from "./event-hub.js";
import { type InspectorTarget, isTarget } from "./target.js";

/** What a step checks about its answer. Paths are dotted (`structuredContent.sum`, `content[0].text`). */
export interface Assertions {
  /** `ok` (a result, not `isError`), `isError` (the tool reported a failure), `error` (a JSON-RPC error). */
  status?: "ok" | "isError" | "error";
  /** Each path's value equals this JSON value. */
  equals?: Record<string, unknown>;
  /** Each path's value (as text, JSON for a non-string) matches this regular expression. */
  matches?: Record<string, string>;
}

/** One saved call: a tool call (`call`), a resource read (`read`) or a list (`list`), and its assertions. */
export interface CollectionStep {
  name?: string;
  call?: string;
  arguments?: Record<string, unknown>;
  read?: string;
  list?: "tools" | "resources" | "templates" | "prompts";
  expect?: Assertions;
}

/** A saved collection of calls with assertions, run by `mcpkit test collection.json [target]`. */
export interface Collection {
  name?: string;
  /** The server, when the command line names none. */
  target?: InspectorTarget;
  steps: CollectionStep[];
}

/** The outcome of {@link runCollection}. */
export interface CollectionRun {
  /** The run as TAP version 14. */
  tap: string;
  passed: number;
  failed: number;
}

/**
 * Reads a collection from parsed JSON.
 * @throws Error naming the first malformed field.
 */
export function parseCollection(value: unknown): Collection {
  const c = value as Collection;
  if (typeof c !== "object" || c === null || !Array.isArray(c.steps))
    throw new Error('a collection is a JSON object with a "steps" array');
  if (c.target !== undefined && !isTarget(c.target))
    throw new Error('the collection\'s "target" is not {kind:"stdio",command} or {kind:"http",url}');
  c.steps.forEach((step, i) => {
    const kinds = [step.call, step.read, step.list].filter((k) => k !== undefined).length;
    if (kinds !== 1) throw new Error(`steps[${i}] needs exactly one of "call", "read", "list"`);
  });
  return c;
}

/** The value at a dotted path (`a.b[0].c`) of `value`. */
export function valueAt(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter(Boolean)) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function check(expect: Assertions, outcome: { error?: string; value?: unknown }): string[] {
  const failures: string[] = [];
  const result = outcome.value as { isError?: boolean } | undefined;
  const status = outcome.error !== undefined ? "error" : result?.isError ? "isError" : "ok";
  const wanted = expect.status ?? "ok";
  if (status !== wanted)
    failures.push(`status is ${status}, expected ${wanted}${outcome.error ? ` (${outcome.error})` : ""}`);
  for (const [path, value] of Object.entries(expect.equals ?? {})) {
    const actual = valueAt(outcome.value, path);
    if (JSON.stringify(actual) !== JSON.stringify(value))
      failures.push(`${path} is ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`);
  }
  for (const [path, pattern] of Object.entries(expect.matches ?? {})) {
    const actual = valueAt(outcome.value, path);
    const text = typeof actual === "string" ? actual : JSON.stringify(actual);
    if (!new RegExp(pattern, "u").test(text ?? ""))
      failures.push(`${path} is ${JSON.stringify(text)}, which does not match /${pattern}/`);
  }
  return failures;
}

/** A hub for a headless run: nobody to ask, so an elicitation is declined; everything else is dropped. */
function headlessHub(decline: (elicitId: string) => void): EventHub {
  return {
    publish(event) {
      if (event.type === "elicitation") decline(String(event.elicitId));
    },
    attach() {},
    close() {},
  };
}

/**
 * Runs a collection headless against `target`: connects, runs each step in order, checks its assertions,
 * and reports in TAP. A failed connect is one failed test naming the doctor's diagnosis.
 */
export async function runCollection(collection: Collection, target: InspectorTarget): Promise<CollectionRun> {
  const lines = ["TAP version 14"];
  let passed = 0;
  let failed = 0;
  // The hub needs the connection to decline on it; the connection needs the hub.
  let decline: (elicitId: string) => void = () => {};
  const connection = openConnection(
    "test",
    target,
    headlessHub((id) => decline(id)),
  );
  decline = (id) => connection.answer(id, { action: "decline" });
  try {
    const summary = await connection.connect();
    if (summary.state !== "ready") {
      const d = summary.diagnosis;
      lines.push(
        "1..1",
        `not ok 1 - connect to ${summary.label}`,
        "  ---",
        `  message: ${JSON.stringify(d ? `${d.step}: ${d.summary} (fix: ${d.fix})` : "the connect failed")}`,
        "  ...",
      );
      return { tap: `${lines.join("\n")}\n`, passed: 0, failed: 1 };
    }
    lines.push(`1..${collection.steps.length}`);
    for (const [i, step] of collection.steps.entries()) {
      const name =
        step.name ??
        (step.call ? `call ${step.call}` : step.read ? `read ${step.read}` : `list ${step.list}`);
      const outcome: { error?: string; value?: unknown } = {};
      try {
        if (step.call)
          outcome.value = (await connection.call(`step${i}`, step.call, step.arguments ?? {})).value;
        else if (step.read) outcome.value = (await connection.read(step.read)).value;
        else if (step.list) outcome.value = { items: await connection.list(step.list) };
      } catch (error) {
        outcome.error = (error as Error).message.split("\n")[0] ?? String(error);
      }
      const failures = check(step.expect ?? {}, outcome);
      if (failures.length === 0) {
        passed++;
        lines.push(`ok ${i + 1} - ${name}`);
      } else {
        failed++;
        lines.push(
          `not ok ${i + 1} - ${name}`,
          "  ---",
          "  failures:",
          ...failures.map((f) => `    - ${JSON.stringify(f)}`),
          "  ...",
        );
      }
    }
  } finally {
    await connection.close();
  }
  lines.push(`# ${passed} passed, ${failed} failed`);
  return { tap: `${lines.join("\n")}\n`, passed, failed };
}
