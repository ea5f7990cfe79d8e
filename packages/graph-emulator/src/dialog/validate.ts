/**
 * Checks a dialog request before anything is shown. Every failure becomes an
 * error page and never a redirect: redirecting to an unverified redirect_uri
 * would make the dialog an open redirector (RFC 6749 §4.1.2.1, RFC 9700 §4.11).
 */
import type { Context } from '../context';
import { collectParams } from '../params';
import { isKnownPermission, OPENID_SCOPE, splitScope } from '../permissions';
import type { ChallengeMethod } from '../store/codes';
import type { DialogRequest, ResponseTypes } from '../store/dialogs';
import type { EmulatorClient } from '../types';
import type { EmulatorKey, Values } from '../i18n/speech';
import type { Say } from './html';

export interface DialogProblem {
  ok: false;
  title: EmulatorKey;
  message: Say;
  /** For "URL blocked": what is registered and what came, so the page can say how to fix it. */
  blocked?: BlockedRedirect;
}

export interface BlockedRedirect {
  registered: string;
  sent: string | undefined;
}

export interface ValidDialog {
  ok: true;
  client: EmulatorClient;
  request: Omit<DialogRequest, 'id'>;
  /** auth_type=rerequest: asking again for declined permissions. */
  rerequest: boolean;
  /** The provider's own `locale` parameter, kept for the form's answer. */
  locale?: string;
}

const problem = (title: EmulatorKey, key: EmulatorKey, values?: Values): DialogProblem => ({
  ok: false,
  title,
  message: values === undefined ? { key } : { key, values },
});

/** RFC 7636 §4.2: 43–128 characters of [A-Za-z0-9-._~]. */
const CHALLENGE_RE = /^[A-Za-z0-9._~-]{43,128}$/;
const MAX_STATE = 2048;
const MAX_NONCE = 2048;

export function validateDialog(ctx: Context, query: unknown): ValidDialog | DialogProblem {
  const { values: params, repeated } = collectParams(query);
  if (repeated[0] !== undefined) {
    return problem('problem.invalidRequest', 'problem.repeated', { name: repeated[0] });
  }
  const client = params.client_id === undefined ? undefined : ctx.clients.get(params.client_id);
  if (client === undefined) {
    return problem('problem.invalidAppId', 'problem.appId');
  }
  if (params.redirect_uri !== client.redirectUri) {
    return {
      ...problem('problem.urlBlocked', 'problem.redirect'),
      blocked: { registered: client.redirectUri, sent: params.redirect_uri },
    };
  }
  const response = responseTypes(params.response_type ?? 'code');
  if (response === undefined) {
    return problem('problem.responseTypeTitle', 'problem.responseType', {
      value: (params.response_type ?? '').slice(0, 100),
    });
  }
  // What the discovery document advertises (oidc/routes.ts): a code alone in the query, anything in the fragment.
  const mode = params.response_mode;
  if (mode !== undefined && mode !== 'fragment' && !(mode === 'query' && !response.token)) {
    return problem('problem.responseTypeTitle', 'problem.responseMode', { value: mode.slice(0, 100) });
  }
  const authType = params.auth_type;
  if (authType !== undefined && !AUTH_TYPES.includes(authType)) {
    return problem('problem.invalidRequest', 'problem.authType', { value: authType.slice(0, 100) });
  }
  // Login for Business: the configuration's permissions replace `scope`.
  const configuration = params.config_id === undefined ? undefined : ctx.configurations.get(params.config_id);
  if (params.config_id !== undefined && configuration === undefined) {
    return problem('problem.configTitle', 'problem.config');
  }
  const scopes = configuration ? [...configuration.permissions] : splitScope(params.scope ?? '');
  const invalid = scopes.filter((s) => !isKnownPermission(s));
  if (invalid.length > 0) {
    return problem('problem.scopesTitle', 'problem.scopes', { scopes: invalid.join(', ').slice(0, 300) });
  }
  const challenge = checkChallenge(params.code_challenge, params.code_challenge_method);
  if (!challenge.ok) return challenge;
  if (params.state !== undefined && params.state.length > MAX_STATE) {
    return problem('problem.invalidRequest', 'problem.tooLong', { name: 'state', max: MAX_STATE });
  }
  if (params.nonce !== undefined && params.nonce.length > MAX_NONCE) {
    return problem('problem.invalidRequest', 'problem.tooLong', { name: 'nonce', max: MAX_NONCE });
  }
  // The provider documents PKCE only for its OIDC flow: outside it the dialog drops the
  // challenge, and the token endpoint then refuses a verifier (docs/specification.md#pkce).
  const keepChallenge = ctx.profile === 'strict-rfc' || scopes.includes(OPENID_SCOPE);
  return {
    ok: true,
    client,
    rerequest: authType === 'rerequest',
    ...(params.locale !== undefined ? { locale: params.locale.slice(0, 10) } : {}),
    request: {
      clientId: client.clientId,
      response,
      rerequest: authType === 'rerequest',
      reauthenticate: authType === 'reauthenticate',
      redirectUri: client.redirectUri,
      scopes,
      ...(params.state !== undefined ? { state: params.state } : {}),
      ...(challenge.value !== undefined && keepChallenge ? { challenge: challenge.value } : {}),
      ...(params.nonce !== undefined ? { nonce: params.nonce } : {}),
    },
  };
}

const AUTH_TYPES = ['rerequest', 'reauthenticate'];
const RESPONSE_TYPES = ['code', 'token', 'granted_scopes'];

/** Every `response_type` the dialog accepts, in the order the words are listed: what discovery advertises. */
export const ACCEPTED_RESPONSE_TYPES: readonly string[] = RESPONSE_TYPES.reduce<string[][]>(
  (all, word) => [...all, ...all.map((words) => [...words, word]), [word]],
  [],
).map((words) => words.join(' '));

/**
 * The manual flow's values, space-separated (`code token` arrives as
 * `code%20token`): code, token or both, and granted_scopes with either;
 * granted_scopes alone answers with a code. Anything else is refused.
 */
function responseTypes(value: string): ResponseTypes | undefined {
  const names = value.split(' ').filter((s) => s !== '');
  if (names.length === 0 || new Set(names).size !== names.length) return undefined;
  if (!names.every((n) => RESPONSE_TYPES.includes(n))) return undefined;
  const token = names.includes('token');
  return { code: names.includes('code') || !token, token, grantedScopes: names.includes('granted_scopes') };
}

type ChallengeCheck = { ok: true; value?: { value: string; method: ChallengeMethod } } | DialogProblem;

function checkChallenge(value: string | undefined, method: string | undefined): ChallengeCheck {
  if (value === undefined) {
    return method === undefined ? { ok: true } : problem('problem.pkceTitle', 'problem.pkceMethodAlone');
  }
  // RFC 7636 §4.3: the method defaults to "plain".
  const m = method ?? 'plain';
  if (m !== 'S256' && m !== 'plain') {
    return problem('problem.pkceTitle', 'problem.pkceMethod');
  }
  if (!CHALLENGE_RE.test(value)) {
    return problem('problem.pkceTitle', 'problem.pkceChallenge');
  }
  return { ok: true, value: { value, method: m } };
}
