import { createRequire } from 'node:module';
import { context, metrics, propagation, trace, type Meter, type Tracer } from '@opentelemetry/api';
import { ENGINE_VERSION } from '../config/index.js';
import type { Logger } from '../logging/index.js';

/** The OTLP switch: `true` exports traces and metrics even without an endpoint (the default `http://localhost:4318`). */
export const OTLP_ENABLED_ENV = 'WILDO_OTLP_ENABLED';

/** Where and how traces and metrics are exported, from the standard `OTEL_*` variables. */
export interface TelemetrySettings {
  serviceName: string;
  /** Full URL of the traces endpoint (`.../v1/traces`). */
  tracesUrl: string;
  /** Full URL of the metrics endpoint (`.../v1/metrics`). */
  metricsUrl: string;
  headers: Record<string, string>;
  /** How often metrics are exported (`OTEL_METRIC_EXPORT_INTERVAL`, default 60 s). */
  metricExportIntervalMs: number;
  /** Whether prompts, completions and tool arguments go into spans (the content capture policy of the sinks). */
  captureContent: boolean;
}

const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318';

/** `k=v,k2=v2` (values URL-encoded), as `OTEL_EXPORTER_OTLP_HEADERS` is written. */
function parseHeaders(raw: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

/**
 * The telemetry settings, or undefined when export is off: it is on with `WILDO_OTLP_ENABLED=true` or an OTLP
 * endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), and off with `OTEL_SDK_DISABLED=true`.
 */
export function telemetrySettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
  captureContent: boolean,
): TelemetrySettings | undefined {
  const switchedOn = /^(true|1|yes|on)$/i.test(env[OTLP_ENABLED_ENV]?.trim() ?? '');
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim().replace(/\/+$/, '');
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (/^true$/i.test(env.OTEL_SDK_DISABLED?.trim() ?? '')) return undefined;
  if (!switchedOn && !endpoint && !tracesEndpoint) return undefined;
  const base = endpoint || DEFAULT_OTLP_ENDPOINT;
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  return {
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'wildo-backend',
    tracesUrl: tracesEndpoint || `${base}/v1/traces`,
    metricsUrl: env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim() || `${base}/v1/metrics`,
    headers: parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
    metricExportIntervalMs: Number.isFinite(interval) && interval > 0 ? interval : 60_000,
    captureContent,
  };
}

/** The running OpenTelemetry SDK of a process. */
export interface Telemetry {
  readonly settings: TelemetrySettings;
  readonly tracer: Tracer;
  readonly meter: Meter;
  /** Exports what is buffered now (spans and metrics). */
  flush(): Promise<void>;
  /** Flushes, then stops exporting and unregisters the SDK. */
  shutdown(): Promise<void>;
}

/** The engine's instrumentation scope. */
export const TELEMETRY_SCOPE = '@wildo/backend-api';

let running: Telemetry | undefined;

/** The tracer of the running SDK, or undefined when export is off (callers then skip span work entirely). */
export function activeTracer(): Tracer | undefined {
  return running?.tracer;
}

/**
 * Starts the official OpenTelemetry SDK (once per process): OTLP/HTTP protobuf exporters for traces (batched) and
 * metrics (periodic), W3C trace context, and the HTTP, Express, pg and ioredis instrumentations. Modules loaded
 * before it are patched through their shared exports (required again here), so it may start after the imports.
 *
 * @example
 * const settings = telemetrySettingsFrom(process.env, false);
 * const telemetry = settings ? await startTelemetry(settings, logger) : undefined;
 */
export async function startTelemetry(settings: TelemetrySettings, logger: Logger): Promise<Telemetry> {
  if (running) return running;
  // The SDK, its exporters and instrumentations load only when export is on: a process with it off (every test, most
  // applications) never pays their start-up (about 0.7 s of module loading).
  const [
    { W3CTraceContextPropagator },
    { OTLPMetricExporter },
    { OTLPTraceExporter },
    { registerInstrumentations },
    { ExpressInstrumentation, ExpressLayerType },
    { HttpInstrumentation },
    { IORedisInstrumentation },
    { PgInstrumentation },
    { resourceFromAttributes },
    { MeterProvider, PeriodicExportingMetricReader },
    { BatchSpanProcessor, NodeTracerProvider },
  ] = await Promise.all([
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-metrics-otlp-proto'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/sdk-trace-node'),
  ]);
  if (running) return running;
  const resource = resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': ENGINE_VERSION });
  const tracerProvider = new NodeTracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.tracesUrl, headers: settings.headers }), {
        scheduledDelayMillis: 1_000,
      }),
    ],
  });
  tracerProvider.register({ propagator: new W3CTraceContextPropagator() });
  const reader = new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url: settings.metricsUrl, headers: settings.headers }),
    exportIntervalMillis: settings.metricExportIntervalMs,
    exportTimeoutMillis: Math.min(30_000, settings.metricExportIntervalMs),
  });
  const meterProvider = new MeterProvider({ resource, readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  const unregister = registerInstrumentations({
    tracerProvider,
    meterProvider,
    instrumentations: [
      new HttpInstrumentation(),
      // Routers and route handlers only: a span per middleware layer would cost every request a dozen spans.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new PgInstrumentation({ enhancedDatabaseReporting: settings.captureContent }),
      new IORedisInstrumentation(),
    ],
  });
  // Required again now the hooks are in place: the instrumentations patch the (shared) exports on this require.
  const require = createRequire(import.meta.url);
  for (const name of ['node:http', 'node:https', 'express', 'pg', 'ioredis']) {
    try {
      require(name);
    } catch {
      // Not installed in this application: nothing to instrument.
    }
  }
  const telemetry: Telemetry = {
    settings,
    tracer: trace.getTracer(TELEMETRY_SCOPE, ENGINE_VERSION),
    meter: metrics.getMeter(TELEMETRY_SCOPE, ENGINE_VERSION),
    async flush() {
      await Promise.all([tracerProvider.forceFlush(), meterProvider.forceFlush()]);
    },
    async shutdown() {
      running = undefined;
      unregister();
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
  running = telemetry;
  logger.info('OpenTelemetry export on', { traces: settings.tracesUrl, metrics: settings.metricsUrl });
  return telemetry;
}
