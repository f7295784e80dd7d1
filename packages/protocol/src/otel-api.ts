import type { OpenTelemetryApi } from "./telemetry.js";

// Kept apart from telemetry.ts: a client decides with this alone whether to load its telemetry at all,
// so a browser page without OpenTelemetry never downloads the spans code.

const SPECIFIER = "@opentelemetry/api";
let loading: Promise<OpenTelemetryApi | undefined> | undefined;

/**
 * Imports `@opentelemetry/api` once per process and resolves with it, or with `undefined` when it is not
 * installed (or the runtime cannot import it): never rejects. The specifier is not a literal so that
 * bundlers leave the optional peer out; a browser app passes `telemetry: { api }` instead.
 */
export function loadOpenTelemetry(): Promise<OpenTelemetryApi | undefined> {
  loading ??= (
    import(/* webpackIgnore: true */ /* @vite-ignore */ SPECIFIER) as Promise<Record<string, unknown>>
  ).then(
    (m) => ((m.trace ? m : m.default) as OpenTelemetryApi | undefined) ?? undefined,
    () => undefined,
  );
  return loading;
}
