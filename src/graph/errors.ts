import { AppError, type ErrorCode } from '../errors';

/** What a Graph error means for the person, derived from its code. */
export type GraphErrorKind = 'token' | 'permission' | 'rate_limit' | 'policy_block' | 'transient' | 'invalid' | 'other';

/** docs/provider-interface.md#error-codes */
export function classifyGraphCode(code: number): GraphErrorKind {
  if (code === 190 || code === 102 || code === 104) return 'token';
  // 341: "Application limit reached" is a throttle like 4, by the provider's "Handling Errors" page.
  if (code === 4 || code === 17 || code === 32 || code === 341 || code === 613 || code === 80001) return 'rate_limit';
  // 368: the action is temporarily blocked for policy reasons; waiting a minute does not help.
  if (code === 368) return 'policy_block';
  if (code === 10 || code === 210 || (code >= 200 && code <= 299)) return 'permission';
  if (code === 1 || code === 2) return 'transient';
  if (code === 100 || code === 803) return 'invalid';
  return 'other';
}

/** The provider's error JSON, as this app keeps it (the secret-bearing text already scrubbed). */
export interface GraphErrorBody {
  message: string;
  type: string;
  code: number;
  subcode: number | undefined;
  fbtraceId: string | undefined;
  /** `error_user_title` / `error_user_msg`: the provider's own words for the person, when it sends them. */
  userTitle?: string | undefined;
  userMessage?: string | undefined;
}

/** How long to tell the person to wait when the provider limits us without saying for how long. */
export const DEFAULT_RETRY_AFTER_SEC = 60;

/**
 * The Graph API answered with its error JSON. The message is the provider's
 * own text (already scrubbed of anything token-like); `permission` is the
 * permission it names, when it names one.
 */
export class GraphApiError extends AppError {
  readonly kind: GraphErrorKind;
  declare readonly permission: string | undefined;
  declare readonly retryAfterSec: number | undefined;
  declare readonly fbtraceId: string | undefined;
  declare readonly subcode: number | undefined;
  declare readonly userTitle: string | undefined;
  declare readonly userMessage: string | undefined;
  /** The field the provider refused to read (removed or deprecated), when it names one (docs/provider-interface.md#removed-fields). */
  readonly refusedField: string | undefined;
  /** Worth another attempt: the provider called it transient, or failed with a 5xx. */
  readonly retryable: boolean;

  /**
   * @param providerStatus the HTTP status the provider answered with (not ours).
   * @param retryAfterSec for a rate limit, how long the provider said to wait.
   */
  constructor(
    readonly graph: GraphErrorBody,
    providerStatus: number,
    retryAfterSec?: number,
  ) {
    const kind = classifyGraphCode(graph.code);
    super(graphCode(kind, graph.subcode), graph.message);
    this.kind = kind;
    this.retryable = kind === 'transient' || providerStatus >= 500;
    // "(#10) This endpoint requires the 'pages_read_engagement' permission…"
    this.permission = /permission/i.test(graph.message)
      ? /\b([a-z]+(?:_[a-z]+)+)\b/.exec(graph.message)?.[1]
      : undefined;
    this.retryAfterSec = kind === 'rate_limit' ? (retryAfterSec ?? DEFAULT_RETRY_AFTER_SEC) : undefined;
    this.fbtraceId = graph.fbtraceId;
    this.subcode = graph.subcode;
    this.userTitle = graph.userTitle;
    this.userMessage = graph.userMessage;
    this.refusedField = refusedFieldOf(graph);
  }
}

/** The Pages API's subcodes for a Page field it no longer serves (docs/provider-interface.md#removed-fields). */
const REMOVED_FIELD_SUBCODES: readonly number[] = [2069030, 2069031, 2069033];

const FIELD_REFUSALS: readonly RegExp[] = [
  // 100: "(#100) Tried accessing nonexisting field (hours) on node type (Page)"
  /Tried accessing nonexisting field \(([a-z_][a-z0-9_]{0,63})\)/i,
  // 12: "(#12) bio field is deprecated for versions v2.8 and higher"
  /\b([a-z_][a-z0-9_]{0,63}) field is deprecated for versions v\d+\.\d+/i,
];

/**
 * The field a refusal names: code 100 or 12 in the provider's wording, or one of the Pages API's removed-field
 * subcodes in either wording. Undefined when the message names none it can be sure of: then the error stands.
 */
function refusedFieldOf(graph: GraphErrorBody): string | undefined {
  const refusal = graph.code === 100 || graph.code === 12 || REMOVED_FIELD_SUBCODES.includes(graph.subcode ?? 0);
  if (!refusal) return undefined;
  for (const pattern of FIELD_REFUSALS) {
    const field = pattern.exec(graph.message)?.[1];
    if (field !== undefined) return field.toLowerCase();
  }
  return undefined;
}

/** Subcode 33 on an invalid-parameter error: the object does not exist or cannot be reached with this token. */
function graphCode(kind: GraphErrorKind, subcode: number | undefined): ErrorCode {
  if (kind === 'invalid' && subcode === 33) return 'graph_not_found';
  return `graph_${kind}`;
}

/** The token endpoint refused the code (used, expired, wrong redirect_uri…). Never retried. */
export class TokenEndpointError extends AppError {
  declare readonly fbtraceId: string | undefined;
  declare readonly userTitle: string | undefined;
  declare readonly userMessage: string | undefined;

  constructor(
    readonly graph: GraphErrorBody | undefined,
    providerStatus: number,
  ) {
    super('token_endpoint', graph?.message ?? `The provider refused the login (HTTP ${providerStatus}).`);
    this.fbtraceId = graph?.fbtraceId;
    this.userTitle = graph?.userTitle;
    this.userMessage = graph?.userMessage;
  }
}

/** The provider could not be reached, timed out, or answered with something that is not its API. */
export class ProviderUnavailableError extends AppError {
  constructor(
    readonly reason: 'timeout' | 'unreachable' | 'bad_response' | 'http_error',
    detail: string,
  ) {
    super(`provider_${reason}`, detail);
  }
}
