import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { TokenEndpointError, GraphApiError, ProviderUnavailableError } from '../graph/errors';
import type { CodeGrant, UserTokenGrant, VerifiedCallback } from '../graph/client';
import { parseInput, queryParam, refusal } from '../http/params';
import { ownPath, pageIdOf } from '../http/return-to';
import { connectPage } from '../pages/connect';
import { requireCsrf } from '../session/csrf';
import { shortenIfPendingOnly } from '../session/lifetimes';
import { sessionCookieAttributes, sessionCookieName, sessionIdOf } from '../session/middleware';
import { destroy, regenerate, save } from '../session/persist';
import { deniedMessage, isCancel, parseCallback } from './callback';
import { AuthorizationError, IdTokenError, PkceRefusedError, StateMismatchError } from './errors';
import type { Identity } from './id-token';
import { beginLogin, consumeState, dropState, startedAtOf } from './pending';
import { removedSince } from './removals';
import { codeChallenge } from './pkce';
import { loginRateLimit } from './rate-limit';
import type { LoginOutcome } from '../observe/observer';

/** /auth: start the login, take the provider's redirect, log out. */
export function authRoutes(ctx: AppContext): Router {
  const router = Router();
  // BASE_URL, parsed once: every login start compares the request's host with it.
  const base = new URL(ctx.config.baseUrl);
  router.get('/login', loginRateLimit(ctx.config, ctx.loginCounts), (req, res) => login(ctx, base, req, res));
  router.get('/callback', (req, res) => told(ctx, callback(ctx, req, res)));
  router.post('/logout', requireCsrf, (req, res) => logout(ctx, req, res));
  return router;
}

/** `GET /auth/login`: `rerequest=1` asks again for permissions declined; `return_to` is read leniently below. */
const loginInput = z.object({
  query: z.object({
    rerequest: queryParam(1)
      .refine((value) => value === '1', refusal({ key: 'error.login.rerequest' }))
      .optional(),
  }),
});

/** Redirects to the dialog with a fresh state (and PKCE challenge, OIDC nonce as configured), after the session is saved. */
async function login(ctx: AppContext, base: URL, req: Request, res: Response): Promise<void> {
  // The session cookie is kept per host name, and the provider returns to BASE_URL's: a login begun on
  // another name of this machine (127.0.0.1 for localhost) starts over there first, so cookie and callback meet.
  const canonical = sameMachineElsewhere(base, req);
  if (canonical !== undefined) {
    res.redirect(303, canonical);
    return;
  }
  const { rerequest } = parseInput(loginInput, { params: req.params, query: req.query }).query;
  // Anything but one of our own page paths is ignored: the login then ends at the default destination.
  const returnTo = ownPath(req.query.return_to);
  const pending = beginLogin(req, ctx.now(), { pkce: ctx.config.pkce, oidc: ctx.config.oidc }, returnTo);
  // Until the login completes, the session lives no longer than the login may take.
  shortenIfPendingOnly(req);
  const url = new URL(`${ctx.config.authUrl}/${ctx.config.apiVersion}/dialog/oauth`);
  url.search = new URLSearchParams({
    client_id: ctx.config.appId,
    redirect_uri: ctx.config.callbackUrl,
    state: pending.state,
    response_type: 'code',
    // Login for Business: the configuration holds the permissions, so no scope (docs/provider-interface.md#login-dialog).
    ...(ctx.config.configId ? { config_id: ctx.config.configId } : { scope: ctx.config.scopes.join(' ') }),
    ...(pending.verifier !== undefined
      ? { code_challenge: codeChallenge(pending.verifier), code_challenge_method: 'S256' }
      : {}),
    ...(pending.nonce !== undefined ? { nonce: pending.nonce } : {}),
    // Asks again for permissions the person declined before (the dialog otherwise skips them).
    ...(rerequest ? { auth_type: 'rerequest' } : {}),
  }).toString();
  // The state must be stored before the browser can come back with it.
  await save(req);
  res.redirect(303, url.toString());
}

/**
 * Failures save nothing explicitly: a session that existed keeps its pending
 * logins minus the one consumed (saved at the end of the response as any
 * change is), and a callback with no session stores nothing at all.
 */
async function callback(ctx: AppContext, req: Request, res: Response): Promise<LoginOutcome> {
  const params = parseCallback(req.query);
  if (params.kind === 'denied') {
    dropState(req, params.state);
    if (isCancel(params)) {
      res.status(200).render('cancelled', { title: res.locals.locale.t('cancelled.documentTitle') });
      return 'cancelled';
    }
    throw new AuthorizationError(deniedMessage(params));
  }
  const startedAt = startedAtOf(req, params.state);
  const check = consumeState(req, params, ctx.now());
  if (!check.ok) {
    // Already signed in: a reload of the callback, or Back into the dialog and Continue. Nothing is
    // exchanged or changed, so this is no login CSRF (RFC 6749 §10.12); the person just carries on.
    if (ctx.signIns.current(req)) {
      req.session.flash = { key: 'flash.alreadyConnected' };
      res.redirect(303, ctx.config.pageId ? `/pages/${ctx.config.pageId}` : '/pages');
      return 'already_connected';
    }
    logHostMismatch(ctx, req, check.reason);
    throw new StateMismatchError(check.reason);
  }
  const short = await exchange(ctx, check.callback);
  // An OIDC login counts only once its id_token verifies: before then nothing is stored or called.
  const verified: Identity | undefined = ctx.config.oidc
    ? await ctx.idTokens.verify(short.idToken, check.callback.nonce)
    : undefined;
  // All need only the short-lived token: one round trip, not three. Who signed in comes from the
  // verified id_token when the OIDC flow ran, else from /me.
  const [grant, scopes, me] = await Promise.all([
    longLived(ctx, short),
    grantedScopes(ctx, short.token),
    verified ? undefined : ctx.graph.me(short.token),
  ]);
  const identity: Identity | undefined = verified ?? (me ? { userId: me.id, userName: me.name } : undefined);
  // The person removed the app (deauthorize, data deletion) after this login began: it must not bring them back.
  if (identity && (await removedSince(ctx, identity.userId, startedAt ?? 0))) throw new StateMismatchError('removed');

  // A new session id at login, so an id planted before it is worthless (session fixation).
  // Logins still pending in other tabs move to the new session so they can finish too.
  const otherTabs = req.session.pending;
  await regenerate(req);
  if (otherTabs) req.session.pending = otherTabs;
  ctx.signIns.start(req, grant, scopes, identity);
  if (ctx.config.pageId) {
    const changes = await connectPage(ctx, ctx.signIns.userAccess(req), ctx.config.pageId, req.log ?? ctx.logger);
    ctx.signIns.applyPageChanges(req, ctx.config.pageId, changes);
  }
  const target = ctx.config.pageId ? `/pages/${ctx.config.pageId}` : await returnTarget(ctx, req, check.returnTo);
  await save(req);
  res.redirect(303, target);
  return 'completed';
}

/** Tells the metrics how the callback ended (docs/operations.md#metrics); a failure still reaches the error handler. */
async function told(ctx: AppContext, outcome: Promise<LoginOutcome>): Promise<void> {
  try {
    // Awaited first: with no observer, `login?.(…)` would not evaluate its argument and the failure would be lost.
    const ended = await outcome;
    ctx.observer?.login?.(ended);
  } catch (err) {
    ctx.observer?.login?.(loginFailure(err));
    throw err;
  }
}

/** A failed callback's outcome, by where its error came from. */
function loginFailure(err: unknown): LoginOutcome {
  if (err instanceof StateMismatchError) return 'state_mismatch';
  if (err instanceof AuthorizationError) return 'denied';
  if (err instanceof TokenEndpointError || err instanceof PkceRefusedError) return 'exchange_failed';
  if (err instanceof IdTokenError) return 'id_token_invalid';
  if (err instanceof GraphApiError || err instanceof ProviderUnavailableError) return 'provider_error';
  return 'failed';
}

const LOOPBACK = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\]|::1)$/i;

/**
 * The same path on BASE_URL's origin when the request came by another loopback name than BASE_URL's
 * (127.0.0.1, ::1, localhost). Other names are left alone: behind a proxy or in a test they may reach the app
 * under any name, and a proxy that rewrote the host would send the browser round in circles.
 * @see docs/operations.md#host
 */
function sameMachineElsewhere(base: URL, req: Request): string | undefined {
  const here = req.hostname;
  // Port 0 (PORT=0, a free port picked at start): BASE_URL names no place a browser could go.
  if (
    base.port === '0' ||
    here.toLowerCase() === base.hostname.toLowerCase() ||
    !LOOPBACK.test(here) ||
    !LOOPBACK.test(base.hostname)
  )
    return undefined;
  return `${base.origin}${req.originalUrl}`;
}

/**
 * For the operator: a state that matches no login is most often a cookie kept on another host name than the
 * callback's (BASE_URL's). Says which hosts, and whether any session cookie came; never its value.
 */
function logHostMismatch(ctx: AppContext, req: Request, reason: string): void {
  const callbackHost = req.hostname;
  const baseHost = new URL(ctx.config.baseUrl).hostname;
  const cookieSent = sessionIdOf(req.headers.cookie, ctx.config) !== undefined;
  const hint =
    callbackHost !== baseHost
      ? `the callback came to host ${callbackHost}, but BASE_URL's host is ${baseHost}, where the session cookie is set`
      : cookieSent
        ? `the session cookie on ${callbackHost} holds no login with this state`
        : `no session cookie came with the callback on ${callbackHost}: was the login started on another host name than ${baseHost} (the cookie is kept per host)?`;
  (req.log ?? ctx.logger).warn(
    { reason, callbackHost, baseUrlHost: baseHost, sessionCookie: cookieSent },
    `state_mismatch: ${hint}`,
  );
}

/**
 * Where a login ends: the page the person asked for when it began (checked
 * again: it was kept server-side, but the rules may have changed), connected
 * on the way when it names a page — or the picker, with a note, when that
 * page is not among those the person chose at the dialog.
 */
async function returnTarget(ctx: AppContext, req: Request, kept: string | undefined): Promise<string> {
  const path = ownPath(kept);
  if (!path) return '/pages';
  const pageId = pageIdOf(path);
  if (!pageId) return path;
  try {
    const changes = await connectPage(ctx, ctx.signIns.userAccess(req), pageId, req.log ?? ctx.logger);
    ctx.signIns.applyPageChanges(req, pageId, changes);
    return path;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    ctx.logger.info({ err, pageId }, 'the page asked for before login could not be connected');
    req.session.flash = { key: 'flash.pageNotChosen' };
    return '/pages';
  }
}

/**
 * The code exchange. A provider that refuses the PKCE verifier because its
 * dialog dropped the challenge (the real one does outside its OIDC flow,
 * docs/provider-interface.md#pkce) is a setup problem: the log names the fix.
 */
async function exchange(ctx: AppContext, callback: VerifiedCallback): Promise<CodeGrant> {
  try {
    return await ctx.graph.exchangeCode(callback);
  } catch (err) {
    if (!(callback.verifier !== undefined && err instanceof TokenEndpointError && isVerifierRefusal(err))) throw err;
    ctx.logger.error(
      { code: err.graph?.code, fbtrace_id: err.fbtraceId },
      'the provider refused the PKCE code_verifier: its dialog honours code_challenge only when FB_SCOPES contains openid. ' +
        'Set FB_PKCE=off, or add openid to FB_SCOPES',
    );
    throw new PkceRefusedError({ cause: err });
  }
}

/** "code_verifier param is provided without a code_challenge in authorization request" (code 1), or a stand-in's wording of it. */
function isVerifierRefusal(err: TokenEndpointError): boolean {
  const message = err.graph?.message ?? '';
  return /code_verifier/i.test(message) && /code_challenge/i.test(message);
}

/**
 * Swaps the short-lived token for a long-lived one, so page tokens obtained
 * with it do not expire. A provider without this grant keeps the short one.
 */
async function longLived(ctx: AppContext, short: UserTokenGrant): Promise<UserTokenGrant> {
  try {
    return await ctx.graph.exchangeForLongLived(short.token);
  } catch (err) {
    if (!(err instanceof TokenEndpointError || err instanceof GraphApiError)) throw err;
    ctx.logger.warn({ err }, 'long-lived token exchange refused; keeping the short-lived token');
    return short;
  }
}

/** The permissions granted, when the provider tells (it need not: then we learn on first use). */
async function grantedScopes(ctx: AppContext, userToken: string): Promise<string[] | undefined> {
  try {
    return (await ctx.graph.permissions(userToken)).granted;
  } catch (err) {
    ctx.logger.info({ err }, 'could not read granted permissions');
    return undefined;
  }
}

async function logout(ctx: AppContext, req: Request, res: Response): Promise<void> {
  // Pages this session has open stop getting live updates.
  ctx.streams.closeSession(req.sessionID);
  await destroy(req);
  // A browser deletes a cookie only when the clearing one has its attributes (a __Host- cookie needs Secure).
  res.clearCookie(sessionCookieName(ctx.config), sessionCookieAttributes(ctx.config));
  res.redirect(303, '/?logged_out=1');
}
