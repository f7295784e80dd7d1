import { ConfigError } from "../errors.js";

export { ConfigError };

/** Typed reads of a parsed JSON config; every failure is a ConfigError naming the file and the key. */
export interface ConfigReader {
  readonly file: string;
  fail(key: string, problem: string): never;
  object(value: unknown, key: string): Record<string, unknown>;
  string(value: unknown, key: string): string;
  strings(value: unknown, key: string): string[];
  stringMap(value: unknown, key: string): Record<string, string>;
  boolean(value: unknown, key: string): boolean;
  positive(value: unknown, key: string): number;
  /** Fails on a key of `value` not in `known`, naming it and the known ones. */
  known(value: Record<string, unknown>, key: string, known: readonly string[]): void;
}

/** A reader whose errors name `file`. */
export function createConfigReader(file: string): ConfigReader {
  const fail = (key: string, problem: string): never => {
    throw new ConfigError(file, key, problem);
  };
  const reader: ConfigReader = {
    file,
    fail,
    object(value, key) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return fail(key, value === undefined ? "is missing (an object is needed)" : "must be an object");
      }
      return value as Record<string, unknown>;
    },
    string(value, key) {
      if (typeof value !== "string" || value === "") return fail(key, "must be a non-empty string");
      return value;
    },
    strings(value, key) {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
        return fail(key, "must be an array of strings");
      }
      return value as string[];
    },
    stringMap(value, key) {
      const record = reader.object(value, key);
      for (const [name, v] of Object.entries(record)) {
        if (typeof v !== "string") fail(`${key}.${name}`, "must be a string");
      }
      return record as Record<string, string>;
    },
    boolean(value, key) {
      if (typeof value !== "boolean") return fail(key, "must be true or false");
      return value;
    },
    positive(value, key) {
      if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
        return fail(key, "must be a positive number");
      }
      return value;
    },
    known(value, key, known) {
      for (const name of Object.keys(value)) {
        if (!known.includes(name)) {
          fail(key ? `${key}.${name}` : name, `is not a known setting (known: ${known.join(", ")})`);
        }
      }
    },
  };
  return reader;
}
