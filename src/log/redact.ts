/**
 * Scrubbing of credentials from any text that may reach a log line or a page: HTTP client errors carry full URLs, providers echo parameters.
 */

const SECRET_PARAMS = [
  'access_token',
  'client_secret',
  'code',
  'code_verifier',
  'appsecret_proof',
  'fb_exchange_token',
  'input_token',
  'state',
  'nonce',
  'id_token',
];
const PARAM_RE = new RegExp(`([?&#;\\s"']|^)(${SECRET_PARAMS.join('|')})=([^&#\\s"']*)`, 'gi');
/** Graph tokens start with EAA; anything bearer-like after "Bearer " goes too. */
const TOKEN_RE = /\bEAA[A-Za-z0-9_-]{16,}|(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}|(Basic\s+)[A-Za-z0-9+/=]{8,}/g;

export const REDACTED = '[redacted]';

export function redactText(text: string, known: readonly string[] = []): string {
  let out = text.replace(PARAM_RE, (_m, lead: string, name: string) => `${lead}${name}=${REDACTED}`);
  out = out.replace(TOKEN_RE, (_m, bearer?: string, basic?: string) => `${bearer ?? basic ?? ''}${REDACTED}`);
  for (const secret of known) {
    if (secret.length >= 6) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Paths pino redacts in every log record (keys at any depth we emit). */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.access_token',
  '*.client_secret',
  '*.code_verifier',
  '*.id_token',
  '*.idToken',
  '*.nonce',
  '*.appsecret_proof',
  '*.token',
  '*.accessToken',
  '*.pageToken',
  '*.userToken',
];
