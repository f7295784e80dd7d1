// The shapes the page receives from the inspector's API (the server's own types where they are free of Node).

import type { Diagnosis } from "../../src/doctor.js";

export type { Diagnosis } from "../../src/doctor.js";
export type { WireEntry } from "../../src/wire-entry.js";

/** A JSON Schema, as far as the form reads it. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  title?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  enumNames?: string[];
  format?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
}

export interface Summary {
  id: string;
  label: string;
  target: { kind: "stdio" | "http"; [key: string]: unknown };
  state: "connecting" | "ready" | "failed" | "closed";
  era?: string;
  protocolVersion?: string;
  serverInfo?: { name?: string; version?: string; title?: string };
  capabilities?: Record<string, unknown>;
  instructions?: string;
  discovery?: unknown;
  diagnosis?: Diagnosis;
  closedReason?: string;
  stderrTail: string[];
}

export interface Shaped {
  value: unknown;
  bytes: number;
  truncated?: string;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Schema;
  outputSchema?: Schema;
  _meta?: Record<string, unknown>;
}
