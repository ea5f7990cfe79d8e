import diagnostics from 'node:diagnostics_channel';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { ProviderCall } from '../graph/calls';
import type { Logger } from '../log/logger';
import type { Tracing } from './tracing';
import { withinDeadline } from '../deadline';

/** Longest wait, at shutdown, for the spans still buffered to reach the collector. */
const SHUTDOWN_FLUSH_MS = 2000;

/** What node-redis publishes on `node-redis:command` for each command (its TracingChannel). */
interface RedisCommand {
  command?: unknown;
}

/**
 * The OpenTelemetry SDK, loaded by ./tracing only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Spans are made by
 * hand rather than by the http, express and redis instrumentations: those record the URL with its query (the
 * callback's `code`), headers and command arguments (session ids), and hook `require` at start. Here a span
 * carries only templates and bounded words (docs/operations.md#traces).
 */
export function startOtel(
  endpoint: string,
  logger: Logger,
  env: Readonly<Record<string, string | undefined>>,
): Tracing {
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || 'pagelight' }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // The global context manager (AsyncLocalStorage): a provider call's span finds the request it was made for.
  provider.register();
  const tracer = provider.getTracer('pagelight');

  // node-redis tells a diagnostics channel about each command: a span named by the command alone.
  const redisSpans = new WeakMap<object, Span>();
  const redisCommands = diagnostics.tracingChannel<string, RedisCommand & object>('node-redis:command');
  const redisHandlers = {
    start(message: RedisCommand & object) {
      const name =
        typeof message.command === 'string' && /^[A-Za-z.]{1,32}$/.test(message.command)
          ? message.command.toUpperCase()
          : 'OTHER';
      redisSpans.set(
        message,
        tracer.startSpan(`redis ${name}`, {
          kind: SpanKind.CLIENT,
          attributes: { 'db.system.name': 'redis', 'db.operation.name': name },
        }),
      );
    },
    end() {},
    asyncStart() {},
    asyncEnd(message: RedisCommand & object) {
      redisSpans.get(message)?.end();
      redisSpans.delete(message);
    },
    error(message: RedisCommand & object) {
      redisSpans.get(message)?.setStatus({ code: SpanStatusCode.ERROR });
    },
  };
  redisCommands.subscribe(redisHandlers);

  logger.info(`traces go to ${endpoint} (OTLP over HTTP)`);
  return {
    inSpan(req, res, next, route) {
      const span = tracer.startSpan(`${req.method}`, {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method },
      });
      res.once('close', () => {
        const template = route();
        span.updateName(`${req.method} ${template}`);
        span.setAttributes({ 'http.route': template, 'http.response.status_code': res.statusCode });
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      context.with(trace.setSpan(context.active(), span), next);
    },
    providerCall(call: ProviderCall) {
      const attributes: Attributes = {
        'http.request.method': call.method,
        'url.template': call.path,
        'pagelight.provider.call': call.kind,
        'pagelight.provider.outcome': call.outcome,
      };
      if (call.status !== undefined) attributes['http.response.status_code'] = call.status;
      if (call.graphCode !== undefined) attributes['graph.error.code'] = call.graphCode;
      if (call.fbtraceId !== undefined) attributes['graph.fbtrace_id'] = call.fbtraceId;
      const span = tracer.startSpan(
        `${call.method} ${call.path}`,
        { kind: SpanKind.CLIENT, startTime: call.startedAt, attributes },
        context.active(),
      );
      if (call.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(call.startedAt + call.seconds * 1000);
    },
    async close() {
      redisCommands.unsubscribe(redisHandlers);
      // A collector that is down must not hold the stop past the shutdown's own deadline: what it misses is lost.
      await withinDeadline(provider.shutdown(), SHUTDOWN_FLUSH_MS).catch(() => undefined);
      // Another start in this process (tests) registers afresh.
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
