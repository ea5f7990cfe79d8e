/**
 * The legacy Graph features the provider closed to new apps ("Introducing Graph API v27.0", 4 November 2026):
 * "Starting November 4, 2026, new apps cannot use multi-ID requests, date/time formatting, HTTP method
 * override, field aliases, JSONP callbacks, or asynchronous batch requests … This applies across all Graph API
 * versions." An app is new when it was created on or after that day (`EmulatorClient.created`,
 * `EMULATOR_APP_CREATED`, `setAppCreated`); an older app keeps all of them. The refusal's code and words are
 * not documented: the ones below are the emulator's own (docs/specification.md#legacy-features).
 */
import type { Context } from '../context';
import { GraphError } from '../errors';
import { isAppToken } from '../token/app-token';

/** The first day an app counts as new. */
export const LEGACY_CUTOFF = '2026-11-04';

export const APP_CREATED_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A registered app's creation day when none was given: the day it is asked, never before the cutoff (a new app). */
export function defaultCreated(now: number): string {
  const today = new Date(now).toISOString().slice(0, 10);
  return today < LEGACY_CUTOFF ? LEGACY_CUTOFF : today;
}

/** `YYYY-MM-DD` that names a real day, or an error naming `what`. */
export function checkCreated(what: string, value: string): string {
  if (!APP_CREATED_RE.test(value) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value)
    throw new Error(`${what} must be a day written YYYY-MM-DD, got "${value.slice(0, 20)}"`);
  return value;
}

export type LegacyFeature =
  | 'field aliases'
  | 'HTTP method override'
  | 'multi-ID requests'
  | 'date/time formatting'
  | 'JSONP callbacks'
  | 'asynchronous batch requests';

/** `.as(` anywhere in `fields`, at any depth, with or without spaces (the parser takes both). */
const ALIAS_RE = /\.\s*as\s*\(/i;

/** The banned features a request uses, in the blog's order. */
export function legacyFeaturesOf(
  httpMethod: string,
  params: Readonly<Record<string, string>>,
  segments: readonly string[],
): LegacyFeature[] {
  const used: LegacyFeature[] = [];
  if (params.ids !== undefined) used.push('multi-ID requests');
  if (params.date_format !== undefined) used.push('date/time formatting');
  if (httpMethod === 'POST' && params.method !== undefined) used.push('HTTP method override');
  if (params.fields !== undefined && ALIAS_RE.test(params.fields)) used.push('field aliases');
  if (params.callback !== undefined) used.push('JSONP callbacks');
  // The Marketing API's asynchronous batch (`/act_{id}/async_batch_requests` with `adbatch`).
  if (segments.includes('async_batch_requests') || params.adbatch !== undefined)
    used.push('asynchronous batch requests');
  return used;
}

/** The app a token speaks for: an app token names it before `|`; a user or page token was issued to it. */
export function clientOfToken(ctx: Context, token: string): string | undefined {
  if (isAppToken(token)) return token.slice(0, token.indexOf('|'));
  return ctx.tokens.find(token)?.clientId;
}

export function isNewApp(ctx: Context, clientId: string): boolean {
  return (ctx.appCreated.get(clientId) ?? defaultCreated(ctx.now())) >= LEGACY_CUTOFF;
}

/** Throws the refusal for the first banned feature a new app's request uses; an older app passes. */
export function refuseLegacy(ctx: Context, clientId: string | undefined, used: readonly LegacyFeature[]): void {
  const feature = used[0];
  if (feature === undefined || clientId === undefined || !isNewApp(ctx, clientId)) return;
  throw new GraphError({
    code: 12,
    type: 'OAuthException',
    // Invented wording (docs/specification.md#legacy-features): code 12 is the provider's "deprecated" code.
    message: `(#12) This app cannot use ${feature}: apps created on or after November 4, 2026 cannot use them on any version`,
  });
}
