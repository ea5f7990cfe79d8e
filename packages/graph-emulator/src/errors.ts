/**
 * Graph API errors, shaped like the real provider's:
 * `{"error":{"message","type","code","error_subcode"?,"is_transient"?,"fbtrace_id"}}`
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling).
 */
import { randomAlnum } from './random';

/** `OAuthException`, `GraphMethodException`, or another type the provider names. */
export type GraphErrorType = string;

export interface GraphErrorInit {
  code: number;
  message: string;
  subcode?: number;
  type?: GraphErrorType;
  status?: number;
  userTitle?: string;
  userMessage?: string;
  /**
   * `is_transient`: by default true for the codes the provider marks transient
   * and absent otherwise; `false` leaves it out even for such a code, as the
   * provider's captured answers to a wrong client secret and a PKCE verifier
   * without a challenge do (docs/specification.md#client-authentication).
   */
  transient?: false;
  /**
   * The RFC 6750 §3 error the `WWW-Authenticate` challenge names, when the provider
   * sends one for this refusal (`invalid_code` for a refused authorization code,
   * `invalid_request` for a redirect_uri that is not an absolute URI).
   */
  challenge?: 'invalid_code' | 'invalid_request';
}

export class GraphError extends Error {
  readonly code: number;
  readonly subcode: number | undefined;
  readonly type: GraphErrorType;
  readonly status: number;
  readonly userTitle: string | undefined;
  readonly userMessage: string | undefined;
  readonly transient: false | undefined;
  readonly challenge: 'invalid_code' | 'invalid_request' | undefined;

  constructor(init: GraphErrorInit) {
    super(init.message);
    this.name = 'GraphError';
    this.code = init.code;
    this.subcode = init.subcode;
    this.type = init.type ?? 'OAuthException';
    this.status = init.status ?? statusForCode(init.code);
    this.userTitle = init.userTitle;
    this.userMessage = init.userMessage;
    this.transient = init.transient;
    this.challenge = init.challenge;
  }
}

/**
 * HTTP status per error code. The real API answers most errors with 400,
 * permission errors (10, 200–299) with 403, throttling (4/17/32/613/80001) with 403
 * as seen in SDK issue reports, and the transient 1/2 with 500/503. 210
 * ("page access token required") is a 400 in the real API.
 */
export function statusForCode(code: number): number {
  if (code === 1) return 500;
  if (code === 2) return 503;
  if (code === 210) return 400;
  if (code === 10 || (code >= 200 && code <= 299)) return 403;
  if (code === 4 || code === 17 || code === 32 || code === 341 || code === 368 || code === 613 || code === 80001)
    return 403;
  return 400;
}

/** The provider marks throttling and temporary failures as transient. */
function isTransient(code: number): boolean {
  return [1, 2, 4, 17, 32, 341, 613, 80001].includes(code);
}

const DEFAULT_MESSAGES: Record<number, string> = {
  1: 'An unknown error occurred',
  2: 'An unexpected error has occurred. Please retry your request later.',
  4: '(#4) Application request limit reached',
  10: '(#10) Application does not have permission for this action',
  17: '(#17) User request limit reached',
  32: '(#32) Page request limit reached',
  100: '(#100) Invalid parameter',
  190: 'Invalid OAuth access token - Cannot parse access token',
  200: '(#200) Permissions error',
  341: '(#341) Application limit reached',
  368: 'The action attempted has been deemed abusive or is otherwise disallowed',
  613: '(#613) Calls to this api have exceeded the rate limit.',
};

export function defaultMessage(code: number): string {
  return DEFAULT_MESSAGES[code] ?? 'An unknown error has occurred.';
}

/** 11 random [A-Za-z0-9], like the provider's fbtrace_id. */
export function newTraceId(): string {
  return randomAlnum(11);
}

function transientField(err: GraphError): { is_transient?: true } {
  return err.transient === undefined && isTransient(err.code) ? { is_transient: true } : {};
}

export interface GraphErrorBody {
  error: {
    message: string;
    type: string;
    code: number;
    error_subcode?: number;
    is_transient?: boolean;
    error_user_title?: string;
    error_user_msg?: string;
    fbtrace_id: string;
  };
}

export function errorBody(err: GraphError, traceId: string): GraphErrorBody {
  return {
    error: {
      message: err.message,
      type: err.type,
      code: err.code,
      ...(err.subcode !== undefined ? { error_subcode: err.subcode } : {}),
      ...transientField(err),
      ...(err.userTitle !== undefined ? { error_user_title: err.userTitle } : {}),
      ...(err.userMessage !== undefined ? { error_user_msg: err.userMessage } : {}),
      fbtrace_id: traceId,
    },
  };
}

/**
 * RFC 6750 §3 challenge, in the provider's own format:
 * `OAuth "Facebook Platform" "invalid_token" "<message>"`, or `"invalid_code"` for a
 * refused authorization code (docs/specification.md#code-exchange-refusals). Header values must
 * be plain text, so quotes, backslashes and non-Latin-1 characters are dropped.
 */
export function wwwAuthenticate(err: GraphError): string | undefined {
  const kind = err.challenge ?? (err.code === 190 ? 'invalid_token' : err.code === 104 ? 'invalid_request' : undefined);
  if (kind === undefined) return undefined;
  const safe = err.message.replace(/["\\]|[^\x20-\x7e]/g, '');
  return `OAuth "Facebook Platform" "${kind}" "${safe}"`;
}

// --- Errors used in several places -------------------------------------------

export const missingToken = (): GraphError =>
  new GraphError({ code: 104, message: 'An access token is required to request this resource.' });

export const unsupportedGet = (id: string, method = 'get'): GraphError =>
  new GraphError({
    code: 100,
    subcode: 33,
    type: 'GraphMethodException',
    message:
      `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, ` +
      'or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api',
  });

export const nonexistingField = (field: string, nodeType: string): GraphError =>
  new GraphError({
    code: 100,
    message: `(#100) Tried accessing nonexisting field (${field}) on node type (${nodeType})`,
  });

export const badParam = (message: string): GraphError => new GraphError({ code: 100, message: `(#100) ${message}` });

/**
 * Permission error that names the permission in quotes, as the provider does,
 * with words for the person (`error_user_title`/`error_user_msg`, which the
 * Handling Errors guide says an app shows as they are).
 */
export const missingPermission = (permission: string, code: 10 | 200 = 10, extra = ''): GraphError =>
  new GraphError({
    code,
    message: `(#${code}) This endpoint requires the '${permission}' permission${extra}`,
    userTitle: 'Permission needed',
    userMessage:
      permission === 'pages_show_list'
        ? 'This app needs permission to see the list of Pages you manage (pages_show_list). Log in again and allow it.'
        : `This app doesn't have permission to read this Page (${permission}). Log in again, allow every permission it asks for and choose this Page.`,
  });
