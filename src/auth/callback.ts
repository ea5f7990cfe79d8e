import { BadRequestError } from '../errors';
import { z } from 'zod';
import { parseInput, queryParam } from '../http/params';
import type { Say } from '../i18n/locale';

declare const validated: unique symbol;

/** Callback parameters that passed {@link parseCallback}; nothing else can make one. The state check (./pending) takes them one step further, to the code exchange. */
export type CallbackParams = (
  | { kind: 'denied'; state: string | undefined; error: string; reason: string | undefined }
  | { kind: 'code'; state: string | undefined; code: string | undefined }
) & { readonly [validated]: true };

const callbackInput = z.object({
  query: z.object({
    state: queryParam(512).optional(),
    code: queryParam(2048).optional(),
    error: queryParam(200).optional(),
    error_reason: queryParam(200).optional(),
    // Checked for shape only: whoever wrote the link chose this text, so it is never shown.
    error_description: queryParam(1000).optional(),
    error_code: queryParam(20).optional(),
  }),
});

/**
 * Validates the provider's redirect (RFC 6749 §4.1.2) into one of two shapes:
 * the person approved (`code`) or the provider sent an error. Odd shapes —
 * repeated parameters, huge values — are a 400 before anything else happens.
 */
export function parseCallback(query: unknown): CallbackParams {
  const { state, code, error, error_reason: reason } = parseInput(callbackInput, { params: {}, query }).query;
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
