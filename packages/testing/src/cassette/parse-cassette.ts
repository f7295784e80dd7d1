import { isObject } from "@mcpkit/jsonrpc";
import { CASSETTE_FORMAT, CASSETTE_VERSION, type Cassette } from "./cassette.js";

/** A cassette that cannot be used: its message names the line or the field that is wrong. */
export class CassetteError extends Error {
  override name = "CassetteError";
}

function lineOf(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: position - start + 1 };
}

function checkMessage(message: unknown, where: string): void {
  if (!isObject(message)) throw new CassetteError(`${where} must be a JSON-RPC message object`);
  if (message.jsonrpc !== "2.0") throw new CassetteError(`${where}.jsonrpc must be "2.0"`);
  const hasMethod = "method" in message;
  if (hasMethod && typeof message.method !== "string")
    throw new CassetteError(`${where}.method must be a string`);
  if (!hasMethod && !("result" in message) && !("error" in message))
    throw new CassetteError(`${where} has no method, result or error`);
  if (!hasMethod && message.id === undefined) throw new CassetteError(`${where}.id is missing on a response`);
  const id = message.id;
  if (id !== undefined && id !== null && typeof id !== "string" && typeof id !== "number")
    throw new CassetteError(`${where}.id must be a string or a number`);
}

/**
 * Checks a parsed cassette document (see the JSON Schema `cassette.schema.json`) and returns it typed.
 *
 * @throws {CassetteError} naming the first field that is wrong; a `version` newer than
 *   {@link CASSETTE_VERSION} is refused rather than read half-way.
 */
export function checkCassette(value: unknown): Cassette {
  if (!isObject(value)) throw new CassetteError("cassette: the document must be a JSON object");
  if (value.format !== CASSETTE_FORMAT)
    throw new CassetteError(
      `cassette: format must be "${CASSETTE_FORMAT}" (got ${JSON.stringify(value.format)})`,
    );
  if (typeof value.version !== "number" || !Number.isInteger(value.version) || value.version < 1)
    throw new CassetteError(
      `cassette: version must be a positive integer (got ${JSON.stringify(value.version)})`,
    );
  if (value.version > CASSETTE_VERSION)
    throw new CassetteError(
      `cassette: version ${value.version} is newer than this @mcpkit/testing reads (${CASSETTE_VERSION}); upgrade it`,
    );
  if (value.era !== "legacy" && value.era !== "modern")
    throw new CassetteError(`cassette: era must be "legacy" or "modern" (got ${JSON.stringify(value.era)})`);
  for (const key of ["protocolVersion", "recordedAt", "target"] as const) {
    if (value[key] !== undefined && typeof value[key] !== "string")
      throw new CassetteError(`cassette: ${key} must be a string`);
  }
  if (!Array.isArray(value.redacted) || value.redacted.some((k) => typeof k !== "string"))
    throw new CassetteError("cassette: redacted must be an array of strings");
  if (!Array.isArray(value.events)) throw new CassetteError("cassette: events must be an array");
  value.events.forEach((event, i) => {
    const where = `cassette: events[${i}]`;
    if (!isObject(event)) throw new CassetteError(`${where} must be an object`);
    if (event.from !== "client" && event.from !== "server")
      throw new CassetteError(
        `${where}.from must be "client" or "server" (got ${JSON.stringify(event.from)})`,
      );
    if (event.ms !== undefined && (typeof event.ms !== "number" || event.ms < 0))
      throw new CassetteError(`${where}.ms must be a non-negative number`);
    checkMessage(event.message, `${where}.message`);
  });
  return value as unknown as Cassette;
}

/**
 * Parses the text of a cassette file.
 *
 * @throws {CassetteError} `cassette: line L, column C: …` for text that is not JSON, or naming the
 *   field that is wrong (see {@link checkCassette}).
 */
export function parseCassette(text: string): Cassette {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const at = position ? lineOf(text, Number(position[1])) : undefined;
    // Newer V8 quotes the input in its message ("…", "<text>" is not valid JSON): that excerpt may hold
    // line breaks and control characters, so it is dropped, and what remains is escaped to stay one line.
    const detail = message
      .replace(/ in JSON at position \d+.*$/s, "")
      .replace(/, ".*" is not valid JSON$/s, "")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
      .replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    throw new CassetteError(
      at ? `cassette: line ${at.line}, column ${at.column}: ${detail}` : `cassette: not JSON: ${detail}`,
      { cause: error },
    );
  }
  return checkCassette(value);
}

/** The text of a cassette file: pretty JSON, one event per few lines, a newline at the end. */
export function stringifyCassette(cassette: Cassette): string {
  return `${JSON.stringify(cassette, null, 2)}\n`;
}
