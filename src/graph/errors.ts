import { AppError } from '../errors';

/** What a Graph error means for the person, derived from its code (SPEC §2). */
export type GraphErrorKind = 'token' | 'permission' | 'rate_limit' | 'transient' | 'invalid' | 'other';

export function classifyGraphCode(code: number): GraphErrorKind {
  if (code === 190 || code === 102 || code === 104) return 'token';
  if (code === 4 || code === 17 || code === 32 || code === 613 || code === 80001) return 'rate_limit';
  if (code === 10 || code === 210 || (code >= 200 && code <= 299)) return 'permission';
  if (code === 1 || code === 2) return 'transient';
  if (code === 100 || code === 803) return 'invalid';
  return 'other';
}

export interface GraphErrorBody {
  message: string;
  type: string;
  code: number;
  subcode: number | undefined;
  fbtraceId: string | undefined;
}

/**
 * The Graph API answered with its error JSON. `providerMessage` is the
 * provider's own text (already scrubbed of anything token-like); `permission`
 * is the permission it names, when it names one.
 */
export class GraphApiError extends AppError {
  readonly code: string;
  readonly status: number;
  readonly kind: GraphErrorKind;
  readonly permission: string | undefined;
  /** Seconds until the provider lets us in again, when it says so. */
  retryAfterSec: number | undefined;

  constructor(
    readonly graph: GraphErrorBody,
    readonly httpStatus: number,
  ) {
    super(graph.message);
    this.kind = classifyGraphCode(graph.code);
    this.code = `graph_${this.kind}`;
    // "(#10) This endpoint requires the 'pages_read_engagement' permission…"
    this.permission = /permission/i.test(graph.message) ? /\b([a-z]+(?:_[a-z]+)+)\b/.exec(graph.message)?.[1] : undefined;
    this.status = { token: 401, permission: 403, rate_limit: 429, transient: 502, invalid: 400, other: 502 }[this.kind];
  }
}

/** The token endpoint refused the code (used, expired, wrong redirect_uri…). Never retried. */
export class TokenEndpointError extends AppError {
  readonly status = 400;
  readonly code = 'token_endpoint';
  constructor(
    readonly graph: GraphErrorBody | undefined,
    readonly httpStatus: number,
  ) {
    super(graph?.message ?? `The provider refused the login (HTTP ${httpStatus}).`);
  }
}

/** The provider could not be reached, timed out, or answered with something that is not its API. */
export class ProviderUnavailableError extends AppError {
  readonly status: number;
  readonly code: string;
  constructor(
    readonly reason: 'timeout' | 'unreachable' | 'bad_response' | 'http_error',
    detail: string,
  ) {
    super(detail);
    this.status = reason === 'timeout' ? 504 : 502;
    this.code = `provider_${reason}`;
  }
}
