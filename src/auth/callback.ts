import { BadRequestError } from '../errors';
import { singleParam } from '../http/params';
import type { Say } from '../i18n/locale';

declare const validated: unique symbol;

/** Callback parameters that passed {@link parseCallback}; nothing else can make one. The state check (./pending) takes them one step further, to the code exchange. */
export type CallbackParams = (
  | { kind: 'denied'; state: string | undefined; error: string; reason: string | undefined }
  | { kind: 'code'; state: string | undefined; code: string | undefined }
) & { readonly [validated]: true };

/**
 * Validates the provider's redirect (RFC 6749 §4.1.2) into one of two shapes:
 * the person approved (`code`) or the provider sent an error. Odd shapes —
 * repeated parameters, huge values — are a 400 before anything else happens.
 */
export function parseCallback(query: unknown): CallbackParams {
  const state = singleParam(query, 'state', 512);
  const code = singleParam(query, 'code', 2048);
  const error = singleParam(query, 'error', 200);
  const reason = singleParam(query, 'error_reason', 200);
  // Checked for shape only: whoever wrote the link chose this text, so it is never shown.
  singleParam(query, 'error_description', 1000);
  singleParam(query, 'error_code', 20);
  if (error !== undefined) {
    return { kind: 'denied', state, error, reason } as CallbackParams;
  }
  if (code !== undefined && !/^[\x21-\x7e]+$/.test(code)) {
    throw new BadRequestError({ key: 'error.callback.malformedCode' });
  }
  return { kind: 'code', state, code: code === '' ? undefined : code } as CallbackParams;
}

export function isCancel(params: CallbackParams): boolean {
  return params.kind === 'denied' && (params.error === 'access_denied' || params.reason === 'user_denied');
}

export function requireCode(params: CallbackParams & { kind: 'code' }): string {
  if (!params.code) throw new BadRequestError({ key: 'error.callback.noCode' });
  return params.code;
}

/**
 * What the person reads when the provider redirected back with an error:
 * fixed wording per error code of RFC 6749 §4.1.2.1, never text from the
 * link, which anyone can write (`error_description` especially).
 */
/** RFC 6749 §4.1.2.1's codes that have words of their own (`error.denied.<code>`); any other reads as `other`. */
const DENIED = new Set([
  'invalid_request',
  'unauthorized_client',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
]);

export function deniedMessage(params: CallbackParams & { kind: 'denied' }): Say {
  return { key: 'error.denied', values: { error: DENIED.has(params.error) ? params.error : 'other' } };
}
