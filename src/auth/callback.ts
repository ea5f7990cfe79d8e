import { BadRequestError } from '../errors';
import { singleParam } from '../http/params';
import { PROVIDER_NAME as FB } from '../words';

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
    throw new BadRequestError('The authorization code is malformed.');
  }
  return { kind: 'code', state, code: code === '' ? undefined : code } as CallbackParams;
}

export function isCancel(params: CallbackParams): boolean {
  return params.kind === 'denied' && (params.error === 'access_denied' || params.reason === 'user_denied');
}

export function requireCode(params: CallbackParams & { kind: 'code' }): string {
  if (!params.code) throw new BadRequestError('Facebook sent no sign-in code. Please connect again.');
  return params.code;
}

/**
 * What the person reads when the provider redirected back with an error:
 * fixed wording per error code of RFC 6749 §4.1.2.1, never text from the
 * link, which anyone can write (`error_description` especially).
 */
const DENIED_MESSAGES: Readonly<Record<string, string>> = {
  invalid_request: `${FB} found the login request invalid. Please connect again.`,
  unauthorized_client: `${FB} does not allow Pagelight to log you in this way. Please tell the site owner.`,
  unsupported_response_type: `${FB} does not support the kind of login Pagelight asked for. Please tell the site owner.`,
  invalid_scope: `${FB} did not accept the permissions Pagelight asked for. Please tell the site owner.`,
  server_error: `${FB} had a problem completing the login. Please connect again in a moment.`,
  temporarily_unavailable: `${FB} is busy just now. Please connect again in a moment.`,
};
const DENIED_OTHERWISE = `${FB} could not complete the login. Please connect again.`;

export function deniedMessage(params: CallbackParams & { kind: 'denied' }): string {
  return Object.hasOwn(DENIED_MESSAGES, params.error) ? DENIED_MESSAGES[params.error]! : DENIED_OTHERWISE;
}
