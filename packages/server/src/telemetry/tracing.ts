import { FastifyOtelInstrumentation } from '@fastify/otel'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import {
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions'
import type { FastifyPluginCallback } from 'fastify'
import packageJson from '../../package.json' with { type: 'json' }

const UNTRACED = new Set(['/healthz', '/readyz', '/metrics'])

/** Traces being exported, and how to stop. */
export interface Tracing {
  /** Request spans for a Fastify app: register it before any route. */
  readonly requestSpans: FastifyPluginCallback
  /** Sends what is still buffered and stops exporting. */
  shutdown(): Promise<void>
}

/**
 * Whether the standard OpenTelemetry settings ask for traces: an OTLP endpoint is named, and
 * neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none` turns them off.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
}

/**
 * Starts exporting traces over OTLP/HTTP when the environment asks (docs/operations.md,
 * "Traces"), configured only by the standard `OTEL_*` variables (endpoint, headers, service name,
 * sampler, resource attributes). It registers the process's tracer provider, so the spans the
 * database and the webhook sender start through the OpenTelemetry API are recorded from then on;
 * without it those spans are the API's no-ops. Also installs W3C Trace Context propagation, which
 * is how an incoming `traceparent` is honoured and an outgoing one written.
 */
export function startTracing(env: NodeJS.ProcessEnv): Tracing | undefined {
  if (!tracingRequested(env)) return undefined
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: 'workgraph',
    [ATTR_SERVICE_VERSION]: packageJson.version,
  }).merge(detectResources({ detectors: [envDetector] }))
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  })
  provider.register()
  const instrumentation = new FastifyOtelInstrumentation({
    // Probes and scrapes come every few seconds and say nothing about the work.
    ignorePaths: ({ url }) => UNTRACED.has(url),
    // The path without its query: a query can hold what someone searched for.
    requestHook: (span, request) =>
      span.setAttribute(ATTR_URL_PATH, request.url.split('?')[0] ?? ''),
  })
  instrumentation.setTracerProvider(provider)
  return {
    requestSpans: instrumentation.plugin(),
    shutdown: () => provider.shutdown(),
  }
}
