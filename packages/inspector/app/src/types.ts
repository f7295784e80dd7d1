// The shapes the page receives from the inspector's API (mirrors of src/connection.ts and friends).

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

export interface Diagnosis {
  step: string;
  summary: string;
  fix: string;
  error: string;
  stderrTail: string[];
  junk: string[];
  httpStatuses: number[];
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

export interface WireEntry {
  seq: number;
  time: number;
  direction: "out" | "in" | "http";
  era: string;
  method?: string;
  id?: string | number;
  text?: string;
  bytes?: number;
  http?: {
    method: string;
    url: string;
    status?: number;
    error?: string;
    requestHeaders: Record<string, string>;
    responseHeaders: Record<string, string>;
    ms?: number;
  };
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
