import { BadRequestError } from '../errors';
import { singleParam } from '../http/params';

declare const validated: unique symbol;

/** Callback parameters that passed {@link parseCallback}; nothing else can make one. The state check (./pending) takes them one step further, to the code exchange. */
export type CallbackParams = (
  | { kind: 'denied'; state: string | undefined; error: string; reason: string | undefined; description: string | undefined }
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
  const description = singleParam(query, 'error_description', 1000);
  singleParam(query, 'error_code', 20);
  if (error !== undefined) {
    return { kind: 'denied', state, error, reason, description } as CallbackParams;
  }
  if (code !== undefined && !/^[\x21-\x7e]+$/.test(code)) {
    throw new BadRequestError('The authorization code is malformed.');
  }
  return { kind: 'code', state, code: code === '' ? undefined : code } as CallbackParams;
}

export function isCancel(params: CallbackParams): boolean {
  return params.kind === 'denied' && (params.error === 'access_denied' || params.reason === 'user_denied');
}

export function requireCode(params: CallbackParams & { kind: 'code' }): string {
  if (!params.code) throw new BadRequestError('The provider sent no authorization code. Please connect again.');
  return params.code;
}
