/**
 * The login dialog (https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow#logindialog):
 * shows the app, the requested permissions (each can be unchecked to decline
 * it) and a choice of seeded user, then redirects to the app's callback with
 * what `response_type` asked for (redirect.ts), or with the provider's
 * access_denied parameters.
 */
import { Router, type Request, type Response } from 'express';
import type { Context } from '../context';
import { VERSION_RE } from '../respond';
import { IMPLICIT_PERMISSION, OPENID_SCOPE } from '../permissions';
import { isMessage, speechFor, type Speech } from '../i18n/speech';
import { renderError, renderPage, setHtmlHeaders } from './html';
import { redirectBack, redirectWithGrant } from './redirect';
import { validateDialog } from './validate';
import type { DialogRequest } from '../store/dialogs';

const DIALOG_PATHS = ['/:version/dialog/oauth', '/dialog/oauth'];
const DECISION_PATHS = ['/:version/dialog/oauth/decision', '/dialog/oauth/decision'];

export function dialogRouter(ctx: Context): Router {
  const router = Router();
  router.get(DIALOG_PATHS, (req, res) => {
    if (!versionOk(req, res)) return;
    const result = validateDialog(ctx, req.query);
    if (!result.ok) return renderError(res, 400, result.title, result.message, result.blocked);
    const pending = ctx.dialogs.open(req.socket.remoteAddress ?? 'unknown', result.request);
    if (pending === undefined) {
      res.set('Retry-After', '60');
      return renderError(res, 429, 'problem.tooManyTitle', 'problem.tooMany');
    }
    setHtmlHeaders(res, new URL(result.client.redirectUri).origin);
    const { t } = speechFor(req);
    renderPage(res, 'dialog', {
      appName: result.client.name,
      locale: result.locale,
      requestId: pending.id,
      action:
        typeof req.params.version === 'string'
          ? `/${req.params.version}/dialog/oauth/decision`
          : '/dialog/oauth/decision',
      rerequest: result.rerequest,
      reauthenticate: result.request.reauthenticate,
      users: ctx.data.allUsers().map((u) => ({
        id: u.id,
        name: u.name,
        detail: managesLabel(ctx, u.id, t),
        permissions: askable(ctx, pending, u.id).map((name) => ({ name, description: describePermission(name, t) })),
        pages: asksForPages(pending.scopes) ? pageChoices(ctx, u.id) : [],
      })),
    });
  });
  router.post(DECISION_PATHS, (req, res) => {
    if (!versionOk(req, res)) return;
    decide(ctx, req, res);
  });
  router.all([...DIALOG_PATHS, ...DECISION_PATHS], (_req, res) => {
    renderError(res, 405, 'problem.methodTitle', 'problem.dialogMethod');
  });
  return router;
}

function versionOk(req: Request, res: Response): boolean {
  const { version } = req.params;
  if (version === undefined || (typeof version === 'string' && VERSION_RE.test(version))) return true;
  renderError(res, 404, 'problem.notFoundTitle', 'problem.version');
  return false;
}

/**
 * The permissions the dialog asks `userId` for: not the implicit ones, and not one they declined before
 * unless the app asks again (`auth_type=rerequest`), which the provider leaves off its dialog.
 */
function askable(ctx: Context, pending: DialogRequest, userId: string): string[] {
  const before = pending.rerequest ? [] : ctx.tokens.declinedBefore(userId, pending.clientId);
  return pending.scopes.filter((s) => s !== IMPLICIT_PERMISSION && s !== OPENID_SCOPE && !before.includes(s));
}

/**
 * The real dialog has a step where the person chooses which of their Pages
 * the app may use; it appears when the app asks for a Page permission.
 */
function asksForPages(scopes: readonly string[]): boolean {
  return scopes.some((s) => s.startsWith('pages_'));
}

function pageChoices(ctx: Context, userId: string): { id: string; name: string }[] {
  return ctx.data.managed(userId).map(({ page }) => ({ id: page.id, name: nameOf(page.fields.get('name'), page.id) }));
}

/** A Page's name as text; a test may have set it to anything. */
function nameOf(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** A permission in the person's words; one the catalogs do not know is shown by its name. */
function describePermission(name: string, t: Speech['t']): string {
  const key = `permission.${name}`;
  return isMessage(key) ? t(key) : name;
}

function managesLabel(ctx: Context, userId: string, t: Speech['t']): string {
  const n = ctx.data.managed(userId).length;
  const direct = new Set(ctx.data.managed(userId).map((m) => m.page.id));
  const viaPortfolio = new Set(
    ctx.data.businessesOf(userId).flatMap((b) => [...b.owned_pages, ...b.client_pages].filter((id) => !direct.has(id))),
  ).size;
  if (n === 0 && viaPortfolio > 0) return t('dialog.managesPortfolio', { count: viaPortfolio });
  return t('dialog.manages', { count: n });
}

function decide(ctx: Context, req: Request, res: Response): void {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const id = body.request_id;
  const pending = typeof id === 'string' ? ctx.dialogs.take(id) : undefined;
  if (pending === undefined) {
    return renderError(res, 400, 'problem.expiredTitle', 'problem.expired');
  }
  if (body.decision === 'cancel') {
    // The provider's documented "user denied" parameters, in its order.
    return redirectBack(res, pending, {
      error: 'access_denied',
      error_code: '200',
      error_description: 'Permissions error',
      error_reason: 'user_denied',
    });
  }
  const user = typeof body.user_id === 'string' ? ctx.data.user(body.user_id) : undefined;
  if (body.decision !== 'continue' || user === undefined) {
    return renderError(res, 400, 'problem.decisionTitle', 'problem.decision');
  }
  // The emulated people have no password: any is accepted, but the step must be taken.
  if (pending.reauthenticate && (typeof body.password !== 'string' || body.password === '')) {
    return renderError(res, 400, 'problem.passwordTitle', 'problem.password');
  }
  // Only the chosen person's own boxes count (`perm_<user id>`), and only what the dialog asked them.
  const checked = new Set(asStrings(body[`perm_${user.id}`]));
  const asked = askable(ctx, pending, user.id);
  const granted = pending.scopes.filter(
    (s) => s === IMPLICIT_PERMISSION || s === OPENID_SCOPE || (asked.includes(s) && checked.has(s)),
  );
  const declined = pending.scopes.filter((s) => !granted.includes(s));
  ctx.tokens.rememberDecision(user.id, pending.clientId, granted, declined);
  // Only the chosen person's own boxes count (`page_<user id>`), and only Pages they manage.
  const chosen = new Set(asStrings(body[`page_${user.id}`]));
  const pages = asksForPages(pending.scopes)
    ? pageChoices(ctx, user.id)
        .map((p) => p.id)
        .filter((id) => chosen.has(id))
    : undefined;
  const code = ctx.codes.create({
    clientId: pending.clientId,
    redirectUri: pending.redirectUri,
    userId: user.id,
    granted,
    declined,
    ...(pending.challenge !== undefined ? { challenge: pending.challenge } : {}),
    ...(pending.nonce !== undefined ? { nonce: pending.nonce } : {}),
    ...(pages !== undefined ? { pages } : {}),
  });
  redirectWithGrant(ctx, res, pending, code);
}

function asStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
