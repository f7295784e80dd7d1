// The telemetry rows (scenario 11): how a measured mcpkit process takes part in OpenTelemetry.
//   "off": `telemetry: false` (nothing loaded, nothing observed);
//   "api": the default with @opentelemetry/api installed and no SDK registered (it is resolvable from the
//          packages' dist here, as in an app that has the API but never set up an SDK);
//   "sdk": the real SDK registered globally as an app would (AsyncLocalStorage context, W3C propagation,
//          a tracer provider with the batch processor, a meter provider with a periodic reader), exporting
//          to exporters that drop everything: the cost of recording, not of shipping.
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";

const dropped = (_items, done) => done({ code: 0 });
const noSpans = { export: dropped, shutdown: async () => {}, forceFlush: async () => {} };
const noMetrics = { export: dropped, shutdown: async () => {}, forceFlush: async () => {} };

/** The `telemetry` option for a client or server in `mode` (registers the SDK first for "sdk"). */
export async function telemetryOption(mode) {
  if (mode === "off") return false;
  if (mode === "sdk") {
    const api = await import("@opentelemetry/api");
    api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    api.trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(noSpans)] }),
    );
    api.metrics.setGlobalMeterProvider(
      new MeterProvider({
        readers: [new PeriodicExportingMetricReader({ exporter: noMetrics, exportIntervalMillis: 60_000 })],
      }),
    );
  }
  return undefined;
}
