import type { ProviderCall } from '../graph/calls';

/** How a login's callback ended, in a bounded set of words (docs/operations.md#metrics). */
export type LoginOutcome =
  | 'completed'
  | 'cancelled'
  | 'denied'
  | 'already_connected'
  | 'state_mismatch'
  | 'exchange_failed'
  | 'id_token_invalid'
  | 'provider_error'
  | 'failed';

/** What became of one webhook delivery. */
export type WebhookOutcome = 'accepted' | 'repeated' | 'bad_signature' | 'ignored';

/** A write of the Page's (docs/architecture.md#writes): what it was, and how it ended, in bounded words. */
export interface WriteDone {
  action: string;
  outcome: 'done' | 'repeat' | 'refused' | 'unknown' | 'checked_done' | 'checked_absent' | 'forbidden';
}

/** One answered request: its route template (never the raw URL), method, status and length. */
export interface RequestDone {
  route: string;
  method: string;
  status: number;
  seconds: number;
}

/**
 * What the app tells its metrics and traces (src/observe). Each is optional: with neither METRICS_PORT nor
 * OTEL_EXPORTER_OTLP_ENDPOINT set, the context holds none and the hooks cost one property read.
 */
export interface Observer {
  request?: (done: RequestDone) => void;
  providerCall?: (call: ProviderCall) => void;
  login?: (outcome: LoginOutcome) => void;
  webhook?: (outcome: WebhookOutcome) => void;
  write?: (done: WriteDone) => void;
}

/** The observers that are on, as one; undefined when none is. */
export function together(...parts: (Observer | undefined)[]): Observer | undefined {
  const on = parts.filter((part): part is Observer => part !== undefined);
  if (on.length <= 1) return on[0];
  return {
    request: (done) => on.forEach((o) => o.request?.(done)),
    providerCall: (call) => on.forEach((o) => o.providerCall?.(call)),
    login: (outcome) => on.forEach((o) => o.login?.(outcome)),
    webhook: (outcome) => on.forEach((o) => o.webhook?.(outcome)),
    write: (done) => on.forEach((o) => o.write?.(done)),
  };
}
