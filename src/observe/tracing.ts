import type { Request, Response } from 'express';
import type { Config } from '../config';
import type { ProviderCall } from '../graph/calls';
import type { Logger } from '../log/logger';

/**
 * Traces as the app uses them; the OpenTelemetry SDK behind it (./otel) is loaded only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, so an app without it loads, starts and runs no tracing code
 * (docs/operations.md#traces).
 */
export interface Tracing {
  /** Runs the rest of the request inside its span; the span ends when the answer does, named by `route()`. */
  inSpan(req: Request, res: Response, next: () => void, route: () => string): void;
  /** One provider call attempt, as a child span of the request it was made for. */
  providerCall(call: ProviderCall): void;
  /** Sends the spans still buffered (at shutdown). */
  close(): Promise<void>;
}

/** The tracing OTEL_EXPORTER_OTLP_ENDPOINT asks for, or undefined without loading anything. */
export async function tracingFor(
  config: Pick<Config, 'otlpEndpoint'>,
  logger: Logger,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Tracing | undefined> {
  if (config.otlpEndpoint === undefined) return undefined;
  const { startOtel } = await import('./otel');
  return startOtel(config.otlpEndpoint, logger, env);
}
