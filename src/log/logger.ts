import pino, { type Logger, type DestinationStream } from 'pino';
import { LOG_REDACT_PATHS, redactText } from './redact';

export type { Logger };

export interface LoggerOptions {
  level: string;
  pretty?: boolean;
  /** Where records go; tests pass a stream to scrape every line. */
  destination?: DestinationStream;
}

/**
 * What a request, a response and an error look like in a log line: short,
 * and with credentials scrubbed from URLs and messages. A request's lines
 * (./request-log) carry `req` through the first: its id, method and URL, never
 * its headers or raw query.
 */
export const SERIALIZERS = {
  req: (req: { id?: unknown; method?: string; url?: string }) => ({
    id: req.id,
    method: req.method,
    url: redactText(req.url ?? ''),
  }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
  err: (err: Error & { code?: unknown; status?: unknown }) => ({
    type: err.name,
    code: err.code,
    status: err.status,
    message: redactText(err.message ?? ''),
    // A 4xx is an expected outcome: its stack says nothing an operator needs. Its status is read first:
    // reading `stack` formats it, the most expensive step of logging a refused request.
    stack:
      typeof err.status === 'number' && err.status < 500 ? undefined : err.stack ? redactText(err.stack) : undefined,
  }),
};

/**
 * Structured JSON logs. Credentials are removed twice: by key (pino's redact
 * paths) and by value in URLs and messages (the serializers), because a token
 * can hide inside a string such as an HTTP client error's URL.
 */
export function createLogger(options: LoggerOptions): Logger {
  const base: pino.LoggerOptions = {
    level: options.level,
    redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    serializers: SERIALIZERS,
    formatters: { level: (label) => ({ level: label }) },
  };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty) {
    return pino({
      ...base,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss' } },
    });
  }
  return pino(base);
}
